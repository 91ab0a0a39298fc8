import Foundation

/// The data directory holds the SQLite database and the generated secrets: only the server's own
/// user may read it.
package enum DataDirectory {
    /// Creates `directory` (0700) if it is missing, refuses one that others may enter, and returns
    /// the path of `countersign.sqlite` in it, created 0600 if missing and tightened to 0600 if not.
    /// SQLite gives its `-wal` and `-shm` files the database file's permissions.
    package static func prepareDatabaseFile(in directory: String) throws -> String {
        let fileManager = FileManager.default
        if !fileManager.fileExists(atPath: directory) {
            try fileManager.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Refused rather than tightened: the operator may have pointed us at a shared directory
        // (`/tmp`), whose mode is not ours to change.
        if let mode = try permissions(of: directory), mode & 0o077 != 0 {
            throw DataDirectoryError.openToOthers(directory, mode: mode)
        }
        let path = (directory as NSString).appendingPathComponent("countersign.sqlite")
        for file in [path, path + "-wal", path + "-shm"] where fileManager.fileExists(atPath: file) {
            if let mode = try permissions(of: file), mode & 0o077 != 0 {
                try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        }
        if !fileManager.fileExists(atPath: path) {
            guard fileManager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw DataDirectoryError.unwritable(path)
            }
        }
        return path
    }

    static func permissions(of path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }
}

/// Why the data directory cannot be used; start-up stops with this message.
package enum DataDirectoryError: Error, CustomStringConvertible {
    case openToOthers(String, mode: Int)
    case unwritable(String)

    package var description: String {
        switch self {
        case .openToOthers(let path, let mode):
            "data directory \(path) is open to other users (mode \(String(mode, radix: 8))); chmod 700 it, or choose another --data-dir"
        case .unwritable(let path): "cannot create \(path)"
        }
    }
}
