import Foundation

/// Online copies of the SQLite store and their restore.
///
/// A copy is made with `VACUUM INTO` on a connection of its own: it reads one snapshot, which WAL
/// lets the server keep writing past, so the copy is the database as of one commit, whatever runs
/// meanwhile. Copies hold PIN hashes and device keys: they are written 0600, through a temporary
/// name, fsynced, and renamed into place, so a half-written copy never carries the final name.
package enum SQLiteBackup {
    /// What a copy holds: `PRAGMA integrity_check`'s findings (empty when sound) and its migrations.
    package struct Inspection: Sendable {
        package let problems: [String]
        package let migrations: [Int]
    }

    /// Writes a consistent copy of the database at `source` to `destination`, which must not exist.
    package static func copy(from source: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw DatabaseError.engine("no database at \(source)")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw DatabaseError.engine("\(destination) exists already; a backup never overwrites a file")
        }
        let partial = try makePrivateFile(near: destination)
        do {
            let connection = try SQLiteConnectionHandle(path: source)
            defer { connection.close() }
            // VACUUM INTO takes an empty file: the one just made 0600.
            _ = try connection.query("VACUUM INTO $1", [.text(partial)])
            try sync(partial)
            try moveIntoPlace(partial, destination)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Opens the copy at `path` read-only in effect (nothing is written) and checks it.
    package static func inspect(_ path: String) throws -> Inspection {
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseError.engine("no file at \(path)") }
        let connection = try SQLiteConnectionHandle(path: path)
        defer { connection.close() }
        try connection.execute("PRAGMA query_only=ON")
        let findings = try connection.query("PRAGMA integrity_check", []).compactMap {
            try $0.optionalString("integrity_check")
        }
        let migrations = try connection.query("SELECT version FROM schema_migrations ORDER BY version", []).map {
            Int(try $0.int("version"))
        }
        return Inspection(problems: findings == ["ok"] ? [] : findings, migrations: migrations)
    }

    /// Puts the copy at `backup` in place of the database at `path`, moving the current file (and
    /// its WAL and shared-memory files, which belong to it) aside first; returns where it went, nil
    /// when there was nothing to keep.
    /// The caller makes sure no server has the database open.
    package static func restore(from backup: String, to path: String, now: Date = Date()) throws -> String? {
        let partial = try makePrivateFile(near: path)
        do {
            try FileManager.default.removeItem(atPath: partial)
            try FileManager.default.copyItem(atPath: backup, toPath: partial)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
            try sync(partial)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        var setAside: String?
        // An empty file with no WAL (a data directory prepared but never served) holds nothing to keep.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        if size > 0 || FileManager.default.fileExists(atPath: path + "-wal") {
            let aside = path + ".before-restore-\(Int64(now.timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            setAside = aside
        }
        try moveIntoPlace(partial, path)
        return setAside
    }

    /// How many server processes hold a live lease on the database at `path` at `nowMillis`: a
    /// restore under a running server would be overwritten by it, or corrupt what it has open.
    package static func liveServers(at path: String, nowMillis: Int64) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let connection = try SQLiteConnectionHandle(path: path)
        defer { connection.close() }
        let tables = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'server_instances'", [])
        guard !tables.isEmpty else { return 0 }
        let rows = try connection.query(
            "SELECT COUNT(*) AS n FROM server_instances WHERE lease_expires_at > $1", [.integer(nowMillis)])
        return Int(try rows.first?.int("n") ?? 0)
    }

    /// An empty file, 0600, in `destination`'s directory, under a name of its own.
    private static func makePrivateFile(near destination: String) throws -> String {
        let path = destination + ".partial-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DatabaseError.engine("cannot create \(path): errno \(errno)") }
        close(descriptor)
        return path
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DatabaseError.engine("cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw DatabaseError.engine("fsync \(path): errno \(errno)") }
    }

    /// Renames `partial` to `destination` and makes the rename durable (fsync of the directory).
    private static func moveIntoPlace(_ partial: String, _ destination: String) throws {
        guard rename(partial, destination) == 0 else {
            throw DatabaseError.engine("cannot rename \(partial) to \(destination): errno \(errno)")
        }
        try sync(
            (destination as NSString).deletingLastPathComponent.isEmpty
                ? "." : (destination as NSString).deletingLastPathComponent)
    }
}
