import CountersignCodec
import Foundation

/// Secrets that must not be literals in code: taken from configuration, or generated once into
/// `<data-dir>/secrets/NAME` with 0600 permissions and read back on later starts.
package enum SecretStore {
    /// The secret `name`: `configured` if given, else the file, else a new 32-byte random secret.
    package static func secret(named name: String, configured: [UInt8]?, dataDirectory: String) throws -> [UInt8] {
        if let configured {
            guard configured.count >= 32 else { throw SecretError.tooShort(name) }
            return configured
        }
        let directory = (dataDirectory as NSString).appendingPathComponent("secrets")
        let path = (directory as NSString).appendingPathComponent(name)
        let fileManager = FileManager.default
        if let data = try contents(ofSecretFile: path) {
            guard data.count >= 32 else { throw SecretError.tooShort(path) }
            return Array(data)
        }
        try fileManager.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let secret = SecureRandom.bytes(32)
        guard fileManager.createFile(atPath: path, contents: Data(secret), attributes: [.posixPermissions: 0o600])
        else {
            throw SecretError.unwritable(path)
        }
        return secret
    }
}

extension SecretStore {
    /// The bytes of a secret file, nil if there is none; refused if others may read it.
    package static func contents(ofSecretFile path: String) throws -> Data? {
        let fileManager = FileManager.default
        guard let data = fileManager.contents(atPath: path) else { return nil }
        let attributes = try fileManager.attributesOfItem(atPath: path)
        if let permissions = attributes[.posixPermissions] as? NSNumber, permissions.intValue & 0o077 != 0 {
            throw SecretError.permissions(path)
        }
        return data
    }
}

/// Why a secret could not be had; start-up stops with this message.
package enum SecretError: Error, CustomStringConvertible {
    case tooShort(String)
    case permissions(String)
    case unwritable(String)

    package var description: String {
        switch self {
        case .tooShort(let name): "secret \(name) must be at least 32 bytes"
        case .permissions(let path): "secret file \(path) is readable by others; chmod 600 it"
        case .unwritable(let path): "cannot write secret file \(path)"
        }
    }
}
