import CountersignCodec
import CountersignCore
import Crypto
import Foundation

/// A software WebAuthn authenticator with one P-256 credential, for native apps and tests:
/// it produces the clientDataJSON, attestation objects and assertions that a platform authenticator would.
///
/// Copies share one signature counter, like one physical authenticator; the counter rises with every assertion.
public struct DeviceAuthenticator: Sendable {
    /// The attestation statement a registration carries.
    public enum Attestation: String, Sendable {
        /// `none`: no attestation statement.
        case none
        /// `packed` self attestation: the credential key signs authenticatorData || clientDataHash.
        case packed
    }

    /// The RP ID credentials are scoped to.
    public let rpId: String
    /// The origin written into clientDataJSON.
    public let origin: String
    /// The credential ID (32 random bytes unless given).
    public let credentialId: [UInt8]
    /// The credential private key.
    public let privateKey: P256.Signing.PrivateKey
    private let counter: SignCounter

    /// Creates an authenticator holding one credential.
    public init(
        rpId: String, origin: String, privateKey: P256.Signing.PrivateKey = .init(), credentialId: [UInt8]? = nil,
        signCount: UInt32 = 0
    ) {
        self.rpId = rpId
        self.origin = origin
        self.privateKey = privateKey
        self.credentialId = credentialId ?? SecureRandom.bytes(32)
        self.counter = SignCounter(signCount)
    }

    /// The current signature counter.
    public var signCount: UInt32 { counter.current }

    /// The credential public key as a COSE_Key (EC2, P-256, ES256), in CTAP2 canonical order.
    public var credentialPublicKeyCOSE: [UInt8] {
        let point = privateKey.publicKey.x963Representation // 0x04 || x || y
        return CBOREncoder.encode(
            .map([
                CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(-7)), CBORPair(.int(-1), .int(1)),
                CBORPair(.int(-2), .bytes(Array(point[1..<33]))), CBORPair(.int(-3), .bytes(Array(point[33..<65]))),
            ]))
    }

    /// The pieces of a RegistrationResponseJSON: clientDataJSON and an attestation object with `none` or `packed` self attestation.
    public func makeRegistration(challenge: [UInt8], userVerified: Bool = true, attestation: Attestation = .none) -> (
        clientDataJSON: [UInt8], attestationObject: [UInt8]
    ) {
        let clientDataJSON = clientData(type: "webauthn.create", challenge: challenge)
        // WebAuthn §6.5.1: aaguid (zero: a software authenticator has no certified model), length, ID, COSE key.
        var authData = header(flags: 0x41 | (userVerified ? 0x04 : 0), signCount: counter.current)
        authData += [UInt8](repeating: 0, count: 16)
        authData += [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xFF)] + credentialId
        authData += credentialPublicKeyCOSE
        let statement: CBORValue
        switch attestation {
        case .none: statement = .map([])
        case .packed:
            statement = .map([
                CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes(sign(authData, clientDataJSON))),
            ])
        }
        // CTAP2 canonical key order: shorter text keys first.
        let object = CBOREncoder.encode(
            .map([
                CBORPair(.text("fmt"), .text(attestation.rawValue)), CBORPair(.text("attStmt"), statement),
                CBORPair(.text("authData"), .bytes(authData)),
            ]))
        return (clientDataJSON, object)
    }

    /// An assertion: the counter rises by one, and the signature is DER ECDSA over authenticatorData || SHA-256(clientDataJSON).
    public func makeAssertion(challenge: [UInt8], userVerified: Bool = true) -> (
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]
    ) {
        let clientDataJSON = clientData(type: "webauthn.get", challenge: challenge)
        let authData = header(flags: 0x01 | (userVerified ? 0x04 : 0), signCount: counter.increment())
        return (clientDataJSON, authData, sign(authData, clientDataJSON))
    }

    /// CollectedClientData serialised in the spec's order (WebAuthn §5.8.1.1).
    private func clientData(type: String, challenge: [UInt8]) -> [UInt8] {
        Array(
            "{\"type\":\"\(type)\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":\(CanonicalJSON.quote(origin)),\"crossOrigin\":false}"
                .utf8)
    }

    /// rpIdHash || flags || signCount (big-endian).
    private func header(flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpId.utf8))) + [flags] + withUnsafeBytes(of: signCount.bigEndian, Array.init)
    }

    private func sign(_ authData: [UInt8], _ clientDataJSON: [UInt8]) -> [UInt8] {
        let signed = authData + SHA256.hash(data: clientDataJSON)
        // BoringSSL's ECDSA signing fails only when memory allocation does; there is nothing to recover.
        return Array(try! privateKey.signature(for: signed).derRepresentation)
    }
}

/// The shared, lock-protected signature counter: concurrent assertions must each get a distinct, rising value.
private final class SignCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt32

    init(_ value: UInt32) { self.value = value }

    var current: UInt32 { lock.withLock { value } }

    func increment() -> UInt32 {
        lock.withLock {
            value &+= 1
            return value
        }
    }
}
