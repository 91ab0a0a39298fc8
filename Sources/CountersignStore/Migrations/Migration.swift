import Foundation
import Logging

/// One numbered, append-only schema change. Statements use only SQL both engines accept, except
/// where a change cannot be written so (SQLite rebuilds a table to change a CHECK that PostgreSQL
/// alters in place): then `postgresStatements` replace `statements` on PostgreSQL.
package struct Migration: Sendable {
    package let version: Int
    package let name: String
    package let statements: [String]
    package let postgresStatements: [String]?

    init(version: Int, name: String, statements: [String], postgresStatements: [String]? = nil) {
        self.version = version
        self.name = name
        self.statements = statements
        self.postgresStatements = postgresStatements
    }

    /// What runs on `engine`.
    func statements(for engine: DatabaseEngine) -> [String] {
        engine == .postgres ? postgresStatements ?? statements : statements
    }
}

/// Applies the migrations a database has not seen yet, each in its own transaction, before the
/// server accepts traffic.
package enum Migrator {
    /// Every migration, in order. Never edit a released one: append a new one.
    package static let all: [Migration] = [
        Migration0001Core.migration, Migration0002Transfers.migration, Migration0003Marketplace.migration,
        Migration0004Orders.migration, Migration0005SimulatedProvider.migration, Migration0006StripeCustomers.migration,
        Migration0007BidExpiry.migration, Migration0008Hardening.migration, Migration0009ClaimOwners.migration,
        Migration0010PasskeySignIn.migration, Migration0011MarketplaceLists.migration,
        Migration0012TransferIdempotency.migration,
        Migration0013Operators.migration, Migration0014PinLockEscalation.migration,
        Migration0015PhoneAndDevices.migration, Migration0016AuthenticatorMetadata.migration,
        Migration0017BidClosedReason.migration, Migration0018Webhooks.migration, Migration0019Refunds.migration,
        Migration0020Limits.migration, Migration0021WalletFundings.migration,
        Migration0022WalletOrderPayments.migration, Migration0023RateWindows.migration,
        Migration0024PaidOutIndex.migration,
        Migration0025PendingTopUps.migration, Migration0026SpendingDays.migration,
    ]

    /// The table that records which migrations a database has: made before the first migration.
    package static let createSchemaMigrations =
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"

    /// The versions `database` has applied; empty before the first migration.
    package static func appliedVersions(_ database: any Database) async throws -> [Int] {
        guard try await hasSchema(database) else { return [] }
        return try await database.read { sql in
            try await sql.query("SELECT version FROM schema_migrations", []).map { Int(try $0.int("version")) }
        }
    }

    /// Whether migrations ever ran on `database`: their table exists.
    package static func hasSchema(_ database: any Database) async throws -> Bool {
        let engine = database.engine
        return try await database.read { sql in
            let query =
                switch engine {
                case .postgres:
                    "SELECT 1 AS found FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
                case .sqlite: "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                }
            return try await !sql.query(query, []).isEmpty
        }
    }

    /// Brings `database` up to date and returns the versions it applied.
    @discardableResult
    package static func migrate(_ database: any Database, logger: Logger) async throws -> [Int] {
        try await database.transaction { sql in
            try await sql.execute(createSchemaMigrations)
        }
        var applied: [Int] = []
        for migration in all {
            let didApply = try await database.transaction { sql in
                if database.engine == .postgres {
                    // Two servers starting together: the second waits here, then sees the row.
                    try await sql.execute("SELECT pg_advisory_xact_lock(724201)")
                }
                if try await sql.first(
                    "SELECT version FROM schema_migrations WHERE version = $1", [.int(migration.version)]) != nil
                {
                    return false
                }
                for statement in migration.statements(for: database.engine) {
                    try await sql.execute(statement)
                }
                try await sql.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    [
                        .int(migration.version), .text(migration.name),
                        .integer(Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))),
                    ]
                )
                return true
            }
            if didApply {
                logger.info(
                    "applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                applied.append(migration.version)
            }
        }
        return applied
    }
}
