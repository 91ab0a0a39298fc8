extension Endpoint {
    /// Liveness and the database check.
    package static let health = Endpoint(.get, "/health")
    /// Liveness alone: the process answers (no database call).
    package static let healthLive = Endpoint(.get, "/health/live")
    /// Readiness: database, migrations and background workers.
    package static let healthReady = Endpoint(.get, "/health/ready")
    /// The API description.
    package static let openAPIDocument = Endpoint(.get, "/openapi.yaml")
}
