import CountersignServer
import Foundation

/// Which store each `countersign serve` on this machine uses, so that a command pointed at another
/// one can say so. Each server writes `PID.json` in a directory only this user may enter
/// (`COUNTERSIGN_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/countersign`, else the temporary directory's
/// `countersign-UID`) and removes it when it stops; one left by a killed server is skipped and removed.
enum ServerRegistry {
    /// One running server.
    struct Entry: Codable, Equatable {
        let pid: Int32
        /// `StorePlace.identity` of its store.
        let store: String
        /// Its base URL.
        let url: String
    }

    static var directory: String {
        let environment = ProcessInfo.processInfo.environment
        if let directory = environment["COUNTERSIGN_RUNTIME_DIR"], !directory.isEmpty { return directory }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/countersign" }
        return (NSTemporaryDirectory() as NSString).appendingPathComponent("countersign-\(getuid())")
    }

    /// Records this process as a server of `store` at `url`; returns the file to remove at exit, nil
    /// when it cannot be written (the server runs regardless: the record is only a hint).
    static func register(store: StorePlace, url: String) -> String? {
        guard let directory = privateDirectory(creating: true) else { return nil }
        let path = (directory as NSString).appendingPathComponent("\(getpid()).json")
        let entry = Entry(pid: getpid(), store: store.identity, url: url)
        guard let data = try? JSONEncoder().encode(entry),
            FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        else { return nil }
        return path
    }

    /// The servers running on this machine now, other than this process.
    static func running() -> [Entry] {
        guard let directory = privateDirectory(creating: false),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path),
                let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.pid != getpid()
            else { return nil }
            // kill(pid, 0) sends nothing: it only asks whether the process is there. A killed
            // server's record is removed, so the directory does not fill up.
            guard kill(entry.pid, 0) == 0 || errno == EPERM else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
            return entry
        }
    }

    /// The directory, when it is this user's alone (another user could plant misleading records in a
    /// shared one); created 0700 when `creating`.
    private static func privateDirectory(creating: Bool) -> String? {
        let directory = self.directory
        if creating, !FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o077 == 0
        else { return nil }
        return directory
    }
}

/// Where a store is, for people and for comparing one with another.
struct StorePlace: Equatable {
    /// The SQLite file's absolute path, or the PostgreSQL URL without its user and password.
    let identity: String
    let isPostgres: Bool

    init(_ configuration: ServerConfiguration) {
        if let url = configuration.databaseURL {
            isPostgres = true
            var components = URLComponents(string: url)
            components?.user = nil
            components?.password = nil
            components?.query = nil
            identity = components?.string ?? "the PostgreSQL database of DATABASE_URL"
        } else {
            isPostgres = false
            let directory = URL(
                fileURLWithPath: configuration.dataDirectory,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            identity =
                directory.appendingPathComponent("countersign.sqlite").standardizedFileURL
                .resolvingSymlinksInPath().path
        }
    }

    /// How to point a command at a server's store.
    static func flag(for server: ServerRegistry.Entry) -> String {
        server.store.hasPrefix("/")
            ? "--data-dir \((server.store as NSString).deletingLastPathComponent)"
            : "--database-url \(server.store) (with its user and password), or DATABASE_URL"
    }
}
