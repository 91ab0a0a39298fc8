extension Endpoint {
    /// `GET /health`: liveness and the database check.
    package static let health = Endpoint(.get, "/health")
    /// `GET /openapi.yaml`: the API description.
    package static let openAPIDocument = Endpoint(.get, "/openapi.yaml")
}
