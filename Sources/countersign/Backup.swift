import ArgumentParser
import CountersignServer
import CountersignStore
import Foundation

/// `countersign backup --to FILE`: a consistent copy of the SQLite store, taken while the server runs.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite database, consistently, while the server runs (PostgreSQL: pg_dump).")

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("to"), help: "The file to write; it must not exist. Written 0600.")
    var destination: String

    func run() throws {
        let configuration = try store.configuration()
        guard configuration.databaseURL == nil else { throw BackupRefusal.postgres }
        let source = try store.existingPlace(configuration).identity
        try SQLiteBackup.copy(from: source, to: destination)
        let inspection = try SQLiteBackup.inspect(destination)
        guard inspection.problems.isEmpty else {
            throw BackupRefusal.unsound(destination, inspection.problems)
        }
        guard inspection.schemaDifferences.isEmpty else {
            throw BackupRefusal.schema(destination, inspection.schemaDifferences)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.intValue ?? 0
        print(
            "backup written to \(destination): \(size) bytes, integrity ok, schema at migration \(inspection.migrations.last ?? 0)"
        )
    }
}

/// `countersign restore --from FILE`: puts a backup in place of the SQLite store; the server must be stopped.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup in place of the SQLite database (stop the server first; PostgreSQL: pg_restore).")

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("from"), help: "A file written by `countersign backup`.")
    var backup: String

    func run() throws {
        let configuration = try store.configuration()
        guard configuration.databaseURL == nil else { throw BackupRefusal.postgres }
        try Self.check(backup, as: backup)
        let path = try DataDirectory.prepareDatabaseFile(in: configuration.dataDirectory)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let live = try SQLiteBackup.liveServers(at: path, nowMillis: now)
        guard live == 0 else { throw BackupRefusal.serverRunning(live) }
        let setAside = try SQLiteBackup.restore(from: backup, to: path) { try Self.check($0, as: backup) }
        print("restored \(backup) to \(path)" + (setAside.map { "; the database it replaced is at \($0)" } ?? ""))
        print("`countersign serve` applies any newer migrations at start.")
    }

    /// Refuses the file at `path` (called `name` in messages) unless it is sound, from this build's
    /// migrations, and holds exactly the schema they make: a restored file becomes the live store.
    static func check(_ path: String, as name: String) throws {
        let inspection = try SQLiteBackup.inspect(path)
        guard inspection.problems.isEmpty else { throw BackupRefusal.unsound(name, inspection.problems) }
        let known = Set(Migrator.all.map(\.version))
        if let unknown = inspection.migrations.first(where: { !known.contains($0) }) {
            throw BackupRefusal.newer(name, unknown)
        }
        guard inspection.schemaDifferences.isEmpty else {
            throw BackupRefusal.schema(name, inspection.schemaDifferences)
        }
    }
}

/// Why a backup or restore was refused; the message is the operator's next step.
enum BackupRefusal: Error, CustomStringConvertible {
    case postgres
    case unsound(String, [String])
    case newer(String, Int)
    case schema(String, [String])
    case serverRunning(Int)

    var description: String {
        switch self {
        case .postgres:
            "On PostgreSQL, back up with pg_dump and restore with pg_restore (docs/operations.md, Backups)."
        case .unsound(let path, let problems):
            "\(path) fails SQLite's integrity check: \(problems.prefix(5).joined(separator: "; "))"
        case .newer(let path, let version):
            "\(path) has migration \(version), which this build does not know: restore it with the build that wrote it."
        case .schema(let path, let differences):
            "\(path) does not have the schema its migrations make, so it is refused: "
                + differences.prefix(10).joined(separator: "; ")
                + (differences.count > 10 ? "; and \(differences.count - 10) more" : "")
                + ". Restore a copy `countersign backup` wrote from an untouched database."
        case .serverRunning(let count):
            "\(count) server process(es) hold a live lease on this database: stop the server first (a killed one's lease lapses within 15 s)."
        }
    }
}
