import CountersignStore
import Foundation
import Logging
import Testing

/// A restored file becomes the live store, so its schema must be exactly the one its migrations make.
@Suite("Backup schema (SQLite)")
struct BackupSchemaTests {
    /// Changes to a sound backup's schema, each with the words the refusal must name it by.
    static let tamperings: [(sql: String, named: String)] = [
        (
            "CREATE TRIGGER escalate AFTER INSERT ON sessions BEGIN UPDATE users SET is_operator = 1; END",
            "trigger escalate"
        ),
        ("CREATE VIEW everyone AS SELECT id, pin_hash FROM users", "view everyone"),
        ("CREATE INDEX users_name ON users (name)", "index users_name"),
        ("DROP INDEX credentials_user", "missing index credentials_user"),
        ("ALTER TABLE users ADD COLUMN nickname TEXT", "table users"),
        ("CREATE TABLE stash (id TEXT PRIMARY KEY)", "table stash"),
    ]

    @Test("restore refuses a backup with a schema its migrations do not make, names what differs, touches nothing")
    func restoreRefusesCraftedSchema() async throws {
        let root = try BackupDestinationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clean = try await Self.backup(of: root + "/live", at: root + "/clean.sqlite")
        for (index, tampering) in Self.tamperings.enumerated() {
            let crafted = root + "/crafted-\(index).sqlite"
            try FileManager.default.copyItem(atPath: clean, toPath: crafted)
            try await Self.execute(tampering.sql, on: crafted)
            let refused = try await Self.restore(crafted, into: root + "/data-\(index)")
            #expect(
                refused.status != 0 && refused.output.contains("schema") && refused.output.contains(tampering.named),
                "\(tampering.sql): \(refused.output)")
            #expect(
                !FileManager.default.fileExists(atPath: root + "/data-\(index)"), "refused before anything was touched")
        }
        let restored = try await Self.restore(clean, into: root + "/data")
        #expect(restored.status == 0, "the untouched copy restores: \(restored.output)")
    }

    @Test("restore takes a backup from an older schema, and refuses one with objects of migrations it does not record")
    func olderSchemas() async throws {
        let root = try BackupDestinationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let old = root + "/old.sqlite"
        try await Self.migrate(old, through: 12)
        let restored = try await Self.restore(old, into: root + "/data")
        #expect(restored.status == 0, "\(restored.output)")

        // Today's schema claiming to be at migration 12: migration 13's objects are extra.
        let claimed = try await Self.backup(of: root + "/live", at: root + "/claimed.sqlite")
        try await Self.execute("DELETE FROM schema_migrations WHERE version = 13", on: claimed)
        let refused = try await Self.restore(claimed, into: root + "/other")
        #expect(refused.status != 0 && refused.output.contains("table operator_actions"), "\(refused.output)")
    }

    @Test("backup refuses to vouch for a live database that holds an object its migrations do not make")
    func backupChecksSchema() async throws {
        let root = try BackupDestinationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try await Self.backup(of: root + "/live", at: root + "/first.sqlite")
        try await Self.execute(Self.tamperings[0].sql, on: root + "/live/countersign.sqlite")
        let refused = try await CommandLineTests.run(
            ["backup", "--to", root + "/second.sqlite", "--data-dir", root + "/live"], environment: ["DATABASE_URL": ""]
        )
        #expect(refused.status != 0 && refused.output.contains("trigger escalate"), "\(refused.output)")
    }

    /// Migrates a new data directory at `dataDirectory` and backs it up to `path`.
    static func backup(of dataDirectory: String, at path: String) async throws -> String {
        let migrated = try await CommandLineTests.run(
            ["migrate", "--data-dir", dataDirectory], environment: ["DATABASE_URL": ""])
        try #require(migrated.status == 0, "\(migrated.output)")
        let made = try await CommandLineTests.run(
            ["backup", "--to", path, "--data-dir", dataDirectory], environment: ["DATABASE_URL": ""])
        try #require(made.status == 0, "\(made.output)")
        return path
    }

    static func restore(_ backup: String, into dataDirectory: String) async throws -> (status: Int32, output: String) {
        try await CommandLineTests.run(
            ["restore", "--from", backup, "--data-dir", dataDirectory], environment: ["DATABASE_URL": ""])
    }

    static func execute(_ statement: String, on path: String) async throws {
        let database = try await SQLiteDatabase.open(path: path, readerCount: 1, logger: Logger(label: "backup-test"))
        do {
            try await database.transaction { sql in try await sql.execute(statement) }
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
    }

    /// A database at `path` as a build whose last migration was `version` made it.
    static func migrate(_ path: String, through version: Int) async throws {
        let database = try await SQLiteDatabase.open(path: path, readerCount: 1, logger: Logger(label: "backup-test"))
        do {
            try await database.transaction { sql in
                try await sql.execute(Migrator.createSchemaMigrations)
                for migration in Migrator.all where migration.version <= version {
                    for statement in migration.statements { try await sql.execute(statement) }
                    try await sql.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)",
                        [.int(migration.version), .text(migration.name)])
                }
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
    }
}
