extension Endpoint {
    /// Liveness and the database check.
    package static let health = Endpoint(.get, "/health")
    /// The API description.
    package static let openAPIDocument = Endpoint(.get, "/openapi.yaml")
}
