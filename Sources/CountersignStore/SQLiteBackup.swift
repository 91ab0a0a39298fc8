import Foundation

/// Online copies of the SQLite store and their restore.
///
/// A copy is made with `VACUUM INTO` on a connection of its own: it reads one snapshot, which WAL
/// lets the server keep writing past, so the copy is the database as of one commit, whatever runs
/// meanwhile. Copies hold PIN hashes and device keys: they are written 0600, through a temporary
/// name, fsynced, and then given the final name (never replacing a file), so a half-written copy
/// never carries it.
package enum SQLiteBackup {
    /// What a copy holds: `PRAGMA integrity_check`'s findings (empty when sound), its migrations, and
    /// how its schema differs from the one those migrations make (empty when it is that one).
    package struct Inspection: Sendable {
        package let problems: [String]
        package let migrations: [Int]
        package let schemaDifferences: [String]
    }

    /// Writes a consistent copy of the database at `source` to `destination`, which must not exist.
    package static func copy(from source: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw DatabaseError.engine("no database at \(source)")
        }
        try refuseTaken(destination)
        let partial = try makePrivateFile(near: destination)
        do {
            let connection = try SQLiteConnectionHandle(path: source)
            defer { connection.close() }
            // VACUUM INTO takes an empty file: the one just made 0600.
            _ = try connection.query("VACUUM INTO $1", [.text(partial)])
            try sync(partial)
            try publish(partial, as: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Gives the finished copy at `partial` the name `destination`, never replacing what holds it.
    ///
    /// The check before the copy cannot be the guard: a file can appear at `destination` while
    /// `VACUUM INTO` runs, and `rename()` would replace it, as it replaces a symbolic link (even a
    /// dangling one). `link()` fails with EEXIST instead, whatever holds the name, so the copy gets
    /// a second name only if it was free; the temporary name is then removed.
    package static func publish(_ partial: String, as destination: String) throws {
        try refuseTaken(destination)
        guard link(partial, destination) == 0 else {
            let error = errno
            if error == EEXIST {
                throw DatabaseError.engine(
                    "\(destination) appeared while the copy was made; a backup never overwrites a file")
            }
            throw DatabaseError.engine("cannot link \(partial) to \(destination): errno \(error)")
        }
        guard unlink(partial) == 0 else {
            throw DatabaseError.engine(
                "the backup is at \(destination), but \(partial) could not be removed: errno \(errno)")
        }
        try syncDirectory(of: destination)
    }

    /// Refuses a `destination` that exists, as a file, a directory or a symbolic link (dangling or not).
    private static func refuseTaken(_ destination: String) throws {
        var status = stat()
        guard lstat(destination, &status) == 0 else {
            guard errno == ENOENT else { throw DatabaseError.engine("cannot examine \(destination): errno \(errno)") }
            return
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw DatabaseError.engine(
                "\(destination) is a symbolic link; a backup never writes through one or replaces it: name a new file")
        }
        throw DatabaseError.engine("\(destination) exists already; a backup never overwrites a file")
    }

    /// Opens the copy at `path` read-only in effect (nothing is written) and checks it.
    package static func inspect(_ path: String) throws -> Inspection {
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseError.engine("no file at \(path)") }
        let connection = try SQLiteConnectionHandle(path: path)
        defer { connection.close() }
        try connection.execute("PRAGMA query_only=ON")
        // Nothing in the file is trusted yet: its views and triggers may not call functions.
        try connection.execute("PRAGMA trusted_schema=OFF")
        let findings = try connection.query("PRAGMA integrity_check", []).compactMap {
            try $0.optionalString("integrity_check")
        }
        let migrations = try connection.query("SELECT version FROM schema_migrations ORDER BY version", []).map {
            Int(try $0.int("version"))
        }
        let recorded = Set(migrations)
        let known = Set(Migrator.all.map(\.version))
        let expected = try SQLiteSchema.made(by: Migrator.all.filter { recorded.contains($0.version) })
        let differences =
            migrations.filter { !known.contains($0) }.map { "migration \($0), which this build does not know" }
            + (try SQLiteSchema(connection).differences(from: expected))
        return Inspection(
            problems: findings == ["ok"] ? [] : findings, migrations: migrations, schemaDifferences: differences)
    }

    /// Puts the copy at `backup` in place of the database at `path`, moving the current file (and
    /// its WAL and shared-memory files, which belong to it) aside first; returns where it went, nil
    /// when there was nothing to keep. `verify` is given the copy about to be put in place, before
    /// anything is moved: the file checked is the file restored, even if `backup` changes meanwhile.
    /// The caller makes sure no server has the database open.
    package static func restore(
        from backup: String, to path: String, now: Date = Date(), verify: (String) throws -> Void
    ) throws -> String? {
        let partial = try makePrivateFile(near: path)
        do {
            try FileManager.default.removeItem(atPath: partial)
            try FileManager.default.copyItem(atPath: backup, toPath: partial)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
            try sync(partial)
            try verify(partial)
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
        try syncDirectory(of: destination)
    }

    /// Makes a new name in `path`'s directory durable.
    private static func syncDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try sync(directory.isEmpty ? "." : directory)
    }
}
