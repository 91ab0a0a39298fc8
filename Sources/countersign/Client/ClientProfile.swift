import CountersignClient
import Foundation

/// What the terminal app keeps between runs, in one directory of its own (0700): the session
/// (`session.json`, 0600), the device key (`device-key.json`, sealed under the local PIN), the local
/// PIN's hash (`local-pin`, 0600) and the soft-lock flag (`unlocked`).
struct ClientProfile {
    /// The session `signup` or `login` started.
    struct Session: Codable {
        var server: String
        var phone: String
        var sessionToken: String
    }

    /// What lets this terminal sign in to `phone`'s account again with the PIN alone; it outlives
    /// logouts (`device.json`, 0600).
    struct RememberedDevice: Codable {
        var phone: String
        var deviceToken: String
    }

    let directory: String
    /// PBKDF2 rounds for the key file and the local PIN hash (the SDK's default outside the demo).
    var iterations = 100_000

    var sessionPath: String { directory + "/session.json" }
    var devicePath: String { directory + "/device.json" }
    var localPINPath: String { directory + "/local-pin" }
    var softLockFlagPath: String { directory + "/unlocked" }
    var keyStore: FileDeviceKeyStore { FileDeviceKeyStore(directory: directory, iterations: iterations) }

    /// The stored session, if any.
    func session() -> Session? {
        FileManager.default.contents(atPath: sessionPath).flatMap { try? JSONDecoder().decode(Session.self, from: $0) }
    }

    /// The stored session, or a message saying to log in.
    func requireSession() throws -> Session {
        guard let session = session() else {
            throw CommandFailure("not logged in (no \(sessionPath)); run `countersign login` or `countersign signup`")
        }
        return session
    }

    func save(_ session: Session) throws {
        try write(try JSONEncoder().encode(session), to: sessionPath)
    }

    /// The local PIN's verifier, once `device register` set it.
    func localPIN() throws -> LocalPINVerifier? {
        guard let data = FileManager.default.contents(atPath: localPINPath) else { return nil }
        return try LocalPINVerifier(encoded: String(decoding: data, as: UTF8.self))
    }

    func saveLocalPIN(_ verifier: LocalPINVerifier) throws {
        try write(Data(verifier.encoded.utf8), to: localPINPath)
    }

    /// Notes that local authentication unlocked this session (the seed's soft-lock session flag).
    func markUnlocked(_ method: LocalAuthMethod) {
        try? write(
            Data("\(method.rawValue) \(ISO8601DateFormatter().string(from: Date()))\n".utf8), to: softLockFlagPath)
    }

    /// Forgets the session and the soft-lock flag; the device key stays registered.
    /// The device token this terminal keeps for `phone`'s account, if any.
    func deviceToken(for phone: String) -> String? {
        FileManager.default.contents(atPath: devicePath)
            .flatMap { try? JSONDecoder().decode(RememberedDevice.self, from: $0) }
            .flatMap { $0.phone == phone ? $0.deviceToken : nil }
    }

    /// Keeps `token` as this terminal's device token for `phone` (nil keeps what is there).
    func rememberDevice(phone: String, token: String?) throws {
        guard let token else { return }
        try write(try JSONEncoder().encode(RememberedDevice(phone: phone, deviceToken: token)), to: devicePath)
    }

    func clearSession() {
        for path in [sessionPath, softLockFlagPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Creates the directory 0700, or refuses one that others can enter.
    func prepare() throws {
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let mode =
            (try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard mode & 0o077 == 0 else {
            throw CommandFailure("\(directory) is open to other users; run `chmod 700 \(directory)`")
        }
    }

    /// Writes `data` readable by the owner only, replacing the old file in one step.
    private func write(_ data: Data, to path: String) throws {
        try prepare()
        let temporary = path + ".tmp"
        try? FileManager.default.removeItem(atPath: temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw CommandFailure("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else { throw CommandFailure("cannot replace \(path)") }
    }
}
