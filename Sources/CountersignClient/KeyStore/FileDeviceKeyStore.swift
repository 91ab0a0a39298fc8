import CountersignCodec
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device key in one file, `device-key.json`, sealed under the local PIN (see
/// `SealedDeviceKey`): for Linux terminals, servers that act as devices, and tests.
///
/// The file is 0600 inside a directory of its own that is 0700; a directory others can enter is
/// refused rather than silently re-permissioned, because it may not be the store's to change.
public struct FileDeviceKeyStore: DeviceKeyStore {
    /// The directory holding the key file.
    public let directory: String
    /// PBKDF2 rounds for new files; tests may lower it, apps keep the default.
    public let iterations: Int

    /// A store in `directory`, created (0700) on first use.
    public init(directory: String, iterations: Int = 100_000) {
        self.directory = directory
        self.iterations = max(1, iterations)
    }

    /// The key file's path.
    public var filePath: String { directory + "/device-key.json" }

    /// Whether the key file exists.
    public func exists() -> Bool { FileManager.default.fileExists(atPath: filePath) }

    /// A fresh random credential, sealed under `pin`; throws `.alreadyExists` rather than overwrite one.
    public func create(rpId: String, origin: String, pin: String) throws -> DeviceAuthenticator {
        guard !exists() else { throw DeviceKeyStoreError.alreadyExists }
        let authenticator = DeviceAuthenticator(rpId: rpId, origin: origin, credentialId: SecureRandom.bytes(32))
        try save(SealedDeviceKey.seal(authenticator, pin: pin, iterations: iterations))
        return authenticator
    }

    /// The stored credential, unsealed with `pin`.
    public func load(pin: String) throws -> DeviceAuthenticator {
        try readFile().open(pin: pin)
    }

    /// Stores `signCount` if it is higher than the stored one; a counter never goes back.
    public func recordSignCount(_ signCount: UInt32) throws {
        var file = try readFile()
        guard signCount > file.signCount else { return }
        file.signCount = signCount
        try save(file)
    }

    /// Removes the key file.
    public func delete() throws {
        guard unlink(filePath) == 0 || errno == ENOENT else { throw failure("unlink") }
    }

    private func readFile() throws -> SealedDeviceKey {
        guard exists() else { throw DeviceKeyStoreError.notFound }
        guard let data = FileManager.default.contents(atPath: filePath) else { throw failure("read") }
        struct VersionProbe: Decodable { var version: Int }
        guard let probe = try? JSONDecoder().decode(VersionProbe.self, from: data) else {
            throw DeviceKeyStoreError.damaged("not a device key file")
        }
        guard probe.version == SealedDeviceKey.currentVersion else {
            throw DeviceKeyStoreError.unsupportedVersion(probe.version)
        }
        guard let file = try? JSONDecoder().decode(SealedDeviceKey.self, from: data) else {
            throw DeviceKeyStoreError.damaged("a field is missing or has the wrong type")
        }
        return file
    }

    /// Writes a 0600 temporary file created exclusively, then renames it over the old one: the
    /// key is never readable by others, and a crash leaves either the old file or the new one.
    private func save(_ file: SealedDeviceKey) throws {
        try prepareDirectory()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes = Array(try encoder.encode(file))
        let temporary = filePath + ".tmp"
        _ = unlink(temporary) // a leftover from a crash mid-save
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("open") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else {
            _ = unlink(temporary)
            throw failure("write")
        }
        guard rename(temporary, filePath) == 0 else { throw failure("rename") }
    }

    private func prepareDirectory() throws {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var status = stat()
        guard stat(directory, &status) == 0 else { throw failure("stat") }
        guard status.st_mode & 0o077 == 0 else {
            throw DeviceKeyStoreError.storageFailed("\(directory) is open to other users; it must be 0700")
        }
    }

    private func failure(_ operation: String) -> DeviceKeyStoreError {
        .storageFailed("\(operation) \(filePath): \(String(cString: strerror(errno)))")
    }
}
