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

    /// An attestation key and its certificate chain (DER, leaf first), for `packed` basic attestation: what an
    /// authenticator model's vendor provisions. The leaf must certify the model's AAGUID to verify.
    public struct AttestationCertificate: Sendable {
        /// The attestation private key the leaf certifies.
        public let privateKey: P256.Signing.PrivateKey
        /// The x5c chain, DER, leaf first.
        public let chain: [[UInt8]]

        /// Creates an attestation identity.
        public init(privateKey: P256.Signing.PrivateKey, chain: [[UInt8]]) {
            self.privateKey = privateKey
            self.chain = chain
        }
    }

    /// The backup flags an authenticator reports (WebAuthn §6.1.3): BE whether the key may be synced, BS
    /// whether it is now.
    public struct BackupFlags: Sendable, Equatable {
        /// BE: the key may be backed up (a synced passkey).
        public var eligible: Bool
        /// BS: the key is backed up now.
        public var state: Bool

        /// Creates flags; BS without BE is invalid and a verifier refuses it.
        public init(eligible: Bool, state: Bool) {
            self.eligible = eligible
            self.state = state
        }

        /// A device-bound key: neither flag.
        public static let deviceBound = BackupFlags(eligible: false, state: false)

        var byte: UInt8 { (eligible ? 0x08 : 0) | (state ? 0x10 : 0) }
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

    /// The pieces of a RegistrationResponseJSON: clientDataJSON and an attestation object with `none` or `packed`
    /// attestation: self attestation, or basic attestation by `certificate` when one is given. `aaguid` is the
    /// model the authenticator claims (zero by default: a software authenticator has no certified model).
    public func makeRegistration(
        challenge: [UInt8], userVerified: Bool = true, attestation: Attestation = .none,
        backup: BackupFlags = .deviceBound, aaguid: [UInt8] = [UInt8](repeating: 0, count: 16),
        certificate: AttestationCertificate? = nil
    ) -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        precondition(aaguid.count == 16, "an AAGUID is 16 bytes")
        let clientDataJSON = clientData(type: "webauthn.create", challenge: challenge)
        // WebAuthn §6.5.1: aaguid, length, ID, COSE key.
        var authData = header(flags: 0x41 | (userVerified ? 0x04 : 0) | backup.byte, signCount: counter.current)
        authData += aaguid
        authData += [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xFF)] + credentialId
        authData += credentialPublicKeyCOSE
        let statement: CBORValue
        switch attestation {
        case .none: statement = .map([])
        case .packed:
            if let certificate {
                // WebAuthn §8.2: basic attestation, signed by the attestation key, its chain in x5c.
                let signed = authData + SHA256.hash(data: clientDataJSON)
                let signature = Array(try! certificate.privateKey.signature(for: signed).derRepresentation)
                statement = .map([
                    CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes(signature)),
                    CBORPair(.text("x5c"), .array(certificate.chain.map { .bytes($0) })),
                ])
            } else {
                statement = .map([
                    CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), .bytes(sign(authData, clientDataJSON))),
                ])
            }
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
    /// `backup` is what the key reports now (a synced platform key sets BS once it is backed up).
    public func makeAssertion(challenge: [UInt8], userVerified: Bool = true, backup: BackupFlags = .deviceBound) -> (
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]
    ) {
        let clientDataJSON = clientData(type: "webauthn.get", challenge: challenge)
        let authData = header(flags: 0x01 | (userVerified ? 0x04 : 0) | backup.byte, signCount: counter.increment())
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
