/// `GET /health/ready`: whether this process should be sent traffic, and each thing that decides it.
/// The same body comes with 200 (ready) and 503 (not ready), so a probe reads the status and an
/// operator reads what is missing.
public struct ReadinessResponse: Codable, Sendable, Equatable {
    /// `ready` or `not_ready`.
    public var status: String
    /// `sqlite` or `postgres`.
    public var database: String
    /// The database answered a query just now.
    public var databaseAnswers: Bool
    /// How many of this build's migrations the database has applied, of how many it knows.
    public var migrationsApplied: Int
    public var migrationsExpected: Int
    /// Each background worker (sweepers, transfer processor, lease) by name: true while it runs.
    public var workers: [String: Bool]

    public init(
        status: String, database: String, databaseAnswers: Bool, migrationsApplied: Int, migrationsExpected: Int,
        workers: [String: Bool]
    ) {
        self.status = status
        self.database = database
        self.databaseAnswers = databaseAnswers
        self.migrationsApplied = migrationsApplied
        self.migrationsExpected = migrationsExpected
        self.workers = workers
    }
}

/// `GET /health/live`: the process answers.
public struct LivenessResponse: Codable, Sendable, Equatable {
    /// Always `ok`.
    public var status: String

    public init(status: String = "ok") { self.status = status }
}
