import CountersignClient
import Foundation
import Testing
import WebAuthn

@Suite("File device key store")
final class FileDeviceKeyStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-keystore-\(UUID().uuidString)")
    /// A store in a fresh directory (the store makes its own 0700 leaf); few rounds, to keep tests fast.
    let store: FileDeviceKeyStore

    init() {
        store = FileDeviceKeyStore(directory: root.appendingPathComponent("keys").path, iterations: 50)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func permissions(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0, "stat \(path)")
        return status.st_mode & 0o777
    }

    @Test("a created key loads back with the same credential, and its assertions verify")
    func roundTrip() throws {
        #expect(!store.exists())
        let created = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        #expect(store.exists())
        let loaded = try store.load(pin: "482910")
        #expect(loaded.credentialId == created.credentialId)
        #expect(loaded.privateKey.rawRepresentation == created.privateKey.rawRepresentation)
        #expect(loaded.rpId == "localhost" && loaded.origin == "http://localhost:8080")
        let assertion = loaded.makeAssertion(challenge: [1, 2, 3])
        let verifier = AssertionVerifier(relyingParty: RelyingParty(id: "localhost", name: "Countersign", origins: ["http://localhost:8080"]))
        _ = try verifier.verify(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature,
            expectedChallenge: [1, 2, 3], credentialPublicKey: CredentialPublicKey(cose: created.credentialPublicKeyCOSE),
            storedSignCount: 0, userVerificationRequired: true
        )
    }

    @Test("the key file is 0600 and its directory 0700, and the file does not hold the raw key")
    func permissionsAndSecrecy() throws {
        let created = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        #expect(try permissions(store.filePath) == 0o600)
        #expect(try permissions(store.directory) == 0o700)
        let contents = try String(contentsOfFile: store.filePath, encoding: .utf8)
        #expect(!contents.contains(Base64URL.encode(created.privateKey.rawRepresentation)))
        #expect(contents.contains("\"version\" : 1"))
    }

    @Test("a wrong PIN is refused with .wrongPIN")
    func wrongPIN() throws {
        _ = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        #expect(throws: DeviceKeyStoreError.wrongPIN) { try store.load(pin: "482911") }
    }

    @Test("an altered sealed key or credential id is refused as damaged", arguments: ["sealedKey", "credentialId"])
    func tampered(field: String) throws {
        _ = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        let data = try Data(contentsOf: URL(fileURLWithPath: store.filePath))
        var json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let encoded = try #require(json[field] as? String)
        var bytes = try #require(Base64URL.decode(encoded))
        bytes[bytes.count / 2] ^= 0x01
        json[field] = Base64URL.encode(bytes)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.self) { try store.load(pin: "482910") }
        #expect(throws: DeviceKeyStoreError.damaged("the sealed key or its description was altered")) { try store.load(pin: "482910") }
    }

    @Test("a file that is not a key file, or from a newer SDK, gives a clear error")
    func unreadable() throws {
        _ = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.damaged("not a device key file")) { try store.load(pin: "482910") }
        try Data("{\"version\":2}".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.unsupportedVersion(2)) { try store.load(pin: "482910") }
        try Data("{\"version\":1}".utf8).write(to: URL(fileURLWithPath: store.filePath))
        #expect(throws: DeviceKeyStoreError.damaged("a field is missing or has the wrong type")) { try store.load(pin: "482910") }
    }

    @Test("the sign counter persists across loads and never goes back")
    func counterPersists() throws {
        let created = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        _ = created.makeAssertion(challenge: [1])
        _ = created.makeAssertion(challenge: [2])
        try store.recordSignCount(created.signCount)
        let loaded = try store.load(pin: "482910")
        #expect(loaded.signCount == 2)
        try store.recordSignCount(1)
        #expect(try store.load(pin: "482910").signCount == 2)
        #expect(try permissions(store.filePath) == 0o600)
    }

    @Test("create refuses to overwrite; delete removes; load without a key says notFound")
    func lifecycle() throws {
        #expect(throws: DeviceKeyStoreError.notFound) { try store.load(pin: "482910") }
        _ = try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910")
        #expect(throws: DeviceKeyStoreError.alreadyExists) { try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "1") }
        try store.delete()
        #expect(!store.exists())
        try store.delete()
    }

    @Test("a directory other users can enter is refused")
    func openDirectory() throws {
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.directory)
        #expect(throws: DeviceKeyStoreError.self) { try store.create(rpId: "localhost", origin: "http://localhost:8080", pin: "482910") }
        #expect(!store.exists())
    }
}
