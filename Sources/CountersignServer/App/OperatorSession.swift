import CountersignStore
import Logging

/// Runs an operator command against the store: opens it, keeps its connections running for the
/// duration of `body`, then closes it.
package enum OperatorSession {
    /// With `requireSchema`, a store no `serve` or `migrate` has set up (an empty PostgreSQL database,
    /// an SQLite file that is not Countersign's) is refused with `StoreNotSetUp` before `body` runs.
    package static func run(
        configuration: ServerConfiguration, logger: Logger, requireSchema: Bool = false,
        _ body: @Sendable (AppServices) async throws -> Void
    ) async throws {
        let database = try await CountersignApp.openDatabase(configuration, serving: false, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let postgres = database as? PostgresDatabase {
                group.addTask { try await postgres.run() }
            }
            do {
                if requireSchema, try await !Migrator.hasSchema(database) { throw StoreNotSetUp() }
                let services = try await CountersignApp.makeServices(
                    configuration: configuration, database: database, logger: logger)
                try await body(services)
            } catch {
                group.cancelAll()
                try? await (database as? SQLiteDatabase)?.close()
                throw error
            }
            group.cancelAll()
            try? await (database as? SQLiteDatabase)?.close()
        }
    }

}

/// The store opened holds no Countersign schema: `serve` or `migrate` never ran on it.
package struct StoreNotSetUp: Error {}
