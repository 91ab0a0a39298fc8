import CountersignCodec
import Crypto
import Foundation

/// Version 1 of the device key file: the P-256 private key sealed with AES-256-GCM under a key
/// stretched from the local PIN, plus the public facts needed to use it. JSON, binary fields base64url.
///
/// PBKDF2-HMAC-SHA256 turns PIN and salt into one secret; HKDF splits it into the sealing key and
/// a PIN check value, so a wrong PIN (check differs) and a damaged file (GCM tag fails) give
/// different errors. The check value lets a thief test PINs offline no faster than the GCM tag does.
struct SealedDeviceKey: Codable, Equatable {
    static let currentVersion = 1

    var version: Int
    var kdf: String
    var iterations: Int
    var salt: String
    var pinCheck: String
    /// AES-GCM combined form: nonce ‖ ciphertext ‖ tag.
    var sealedKey: String
    var credentialId: String
    var rpId: String
    var origin: String
    /// Outside the seal, so recording it needs no PIN. A counter is not secret, and whoever can
    /// rewrite this file and knows the PIN can sign with any counter anyway; a lowered one only
    /// makes the server refuse the next assertion.
    var signCount: UInt32

    /// Seals `authenticator`'s key under `pin` with a fresh salt.
    static func seal(_ authenticator: DeviceAuthenticator, pin: String, iterations: Int) throws -> SealedDeviceKey {
        let salt = SecureRandom.bytes(16)
        let keys = derive(pin: pin, salt: salt, iterations: iterations)
        var file = SealedDeviceKey(
            version: currentVersion, kdf: "pbkdf2-sha256", iterations: iterations, salt: Base64URL.encode(salt),
            pinCheck: Base64URL.encode(keys.check), sealedKey: "",
            credentialId: Base64URL.encode(authenticator.credentialId),
            rpId: authenticator.rpId, origin: authenticator.origin, signCount: authenticator.signCount
        )
        let box = try AES.GCM.seal(
            authenticator.privateKey.rawRepresentation, using: keys.seal, authenticating: file.associatedData)
        guard let combined = box.combined else { throw DeviceKeyStoreError.damaged("AES-GCM gave no combined form") }
        file.sealedKey = Base64URL.encode(combined)
        return file
    }

    /// Unseals the key with `pin`, checking every field the seal covers.
    func open(pin: String) throws -> DeviceAuthenticator {
        // A round count far beyond what any SDK writes would hang the unlock rather than protect anything.
        guard kdf == "pbkdf2-sha256", (1...10_000_000).contains(iterations) else {
            throw DeviceKeyStoreError.damaged("unknown key derivation or round count")
        }
        guard let saltBytes = Base64URL.decode(salt), let check = Base64URL.decode(pinCheck),
            let sealed = Base64URL.decode(sealedKey), let credential = Base64URL.decode(credentialId)
        else { throw DeviceKeyStoreError.damaged("a binary field is not base64url") }
        let keys = Self.derive(pin: pin, salt: saltBytes, iterations: iterations)
        guard ConstantTime.equal(keys.check, check) else { throw DeviceKeyStoreError.wrongPIN }
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let raw = try? AES.GCM.open(box, using: keys.seal, authenticating: associatedData),
            let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { throw DeviceKeyStoreError.damaged("the sealed key or its description was altered") }
        return DeviceAuthenticator(
            rpId: rpId, origin: origin, privateKey: privateKey, credentialId: credential, signCount: signCount)
    }

    /// What GCM authenticates besides the key: everything but the counter, each field length-prefixed.
    private var associatedData: [UInt8] {
        ["countersign-device-key", String(version), kdf, String(iterations), salt, credentialId, rpId, origin]
            .flatMap { field in withUnsafeBytes(of: UInt32(field.utf8.count).bigEndian, Array.init) + Array(field.utf8)
            }
    }

    private static func derive(pin: String, salt: [UInt8], iterations: Int) -> (seal: SymmetricKey, check: [UInt8]) {
        let stretched = SymmetricKey(data: PBKDF2.sha256(password: Array(pin.utf8), salt: salt, iterations: iterations))
        let seal = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: stretched, info: Array("countersign device key seal".utf8), outputByteCount: 32)
        let check = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: stretched, info: Array("countersign device key pin check".utf8), outputByteCount: 32)
        return (seal, check.withUnsafeBytes { Array($0) })
    }
}
