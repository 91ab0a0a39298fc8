import CountersignClient
import Foundation
import Testing
import WebAuthn

@Suite("File device key store")
final class FileDeviceKeyStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "countersign-keystore-\(UUID().uuidString)")
    /// A store in a fresh directory (the store makes its own 0700 leaf); few rounds, to keep tests fast.
    let store: FileDeviceKeyStore

    init() {
        store = FileDeviceKeyStore(directory: root.appendingPathComponent("keys").path, iterations: 50)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func create() throws -> DeviceAuthenticator {
        try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
    }

    func permissions(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0, "stat \(path)")
        return status.st_mode & 0o777
    }

    /// Rewrites the key file's JSON through `edit`, as an attacker or a disk fault would.
    func editFile(_ edit: (inout [String: Any]) throws -> Void) throws {
        let url = URL(fileURLWithPath: store.filePath)
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        try edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: url)
    }

    /// Verifies `assertion` as the server does and returns the counter it carried.
    func serverVerifies(
        _ assertion: (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]), challenge: [UInt8],
        key: DeviceAuthenticator, storedSignCount: UInt32
    ) throws -> UInt32 {
        let verifier = AssertionVerifier(
            relyingParty: RelyingParty(id: "localhost", name: "Countersign", origins: ["http://localhost:8080"]))
        return try verifier.verify(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature,
            expectedChallenge: challenge, credentialPublicKey: CredentialPublicKey(cose: key.credentialPublicKeyCOSE),
            storedSignCount: storedSignCount, userVerificationRequired: true
        ).signCount
    }

    @Test("a created key loads back with the same credential, and its assertions verify")
    func roundTrip() throws {
        #expect(!store.exists())
        let created = try create()
        #expect(store.exists())
        let loaded = try store.load(pin: "482910")
        #expect(loaded.credentialId == created.credentialId)
        #expect(loaded.privateKey.rawRepresentation == created.privateKey.rawRepresentation)
        #expect(loaded.rpId == "localhost" && loaded.origin == "http://localhost:8080")
        #expect(
            try serverVerifies(
                loaded.makeAssertion(challenge: [1, 2, 3]), challenge: [1, 2, 3], key: created, storedSignCount: 0) == 1
        )
    }

    @Test("the key file is 0600 and its directory 0700, and the file does not hold the raw key")
    func permissionsAndSecrecy() throws {
        let created = try create()
        #expect(try permissions(store.filePath) == 0o600)
        #expect(try permissions(store.directory) == 0o700)
        let contents = try String(contentsOfFile: store.filePath, encoding: .utf8)
        #expect(!contents.contains(Base64URL.encode(created.privateKey.rawRepresentation)))
        #expect(contents.contains("\"version\" : 1"))
    }

    @Test("a wrong PIN is refused with .wrongPIN")
    func wrongPIN() throws {
        _ = try create()
        #expect(throws: DeviceKeyStoreError.wrongPIN) { try store.load(pin: "482911") }
    }

    @Test("an altered sealed key or credential id is refused as damaged", arguments: ["sealedKey", "credentialId"])
    func tampered(field: String) throws {
        _ = try create()
        try editFile { json in
            var bytes = try #require(Base64URL.decode(json[field] as? String ?? ""))
            bytes[bytes.count / 2] ^= 0x01
            json[field] = Base64URL.encode(bytes)
        }
        #expect(throws: DeviceKeyStoreError.damaged("the sealed key or its description was altered")) {
            try store.load(pin: "482910")
        }
    }

    @Test("a round count no SDK writes is refused instead of hanging the unlock")
    func absurdRounds() throws {
        _ = try create()
        try editFile { $0["iterations"] = Int.max }
        #expect(throws: DeviceKeyStoreError.damaged("unknown key derivation or round count")) {
            try store.load(pin: "482910")
        }
    }

    @Test("a file that is not a key file, or from a newer SDK, gives a clear error")
    func unreadable() throws {
        _ = try create()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.damaged("not a device key file")) { try store.load(pin: "482910") }
        try Data("{\"version\":2}".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.unsupportedVersion(2)) { try store.load(pin: "482910") }
        try Data("{\"version\":1}".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.damaged("a field is missing or has the wrong type")) {
            try store.load(pin: "482910")
        }
    }

    @Test("the sign counter persists across loads, never goes back, and the server accepts the next assertion")
    func counterPersists() throws {
        let created = try create()
        let signer = DeviceKeySigner(authenticator: try store.load(pin: "482910"))
        _ = signer.authenticator.makeAssertion(challenge: [1])
        _ = signer.authenticator.makeAssertion(challenge: [2])
        try store.recordSignCount(signer.signCount)
        try store.recordSignCount(1)
        let reloaded = try store.load(pin: "482910")
        #expect(reloaded.signCount == 2)
        #expect(
            try serverVerifies(reloaded.makeAssertion(challenge: [3]), challenge: [3], key: created, storedSignCount: 2)
                == 3)
        #expect(try permissions(store.filePath) == 0o600)
    }

    @Test("create refuses to overwrite; delete removes; load without a key says notFound")
    func lifecycle() throws {
        #expect(throws: DeviceKeyStoreError.notFound) { try store.load(pin: "482910") }
        _ = try create()
        #expect(throws: DeviceKeyStoreError.alreadyExists) {
            try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "1")
        }
        try store.delete()
        #expect(!store.exists())
        try store.delete()
    }

    @Test("a directory other users can enter is refused")
    func openDirectory() throws {
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.directory)
        let error = #expect(throws: DeviceKeyStoreError.self) { try create() }
        guard case .storageFailed(let reason) = error else {
            Issue.record("expected storageFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("must be 0700"))
        #expect(!store.exists())
    }
}
