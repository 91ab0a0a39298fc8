import CountersignClient
import CountersignCodec
import CountersignCore
import Crypto
import WebAuthn

/// One signed assertion and everything needed to verify it, built once before any timing starts:
/// the same shapes the server sees (a 32-byte intent challenge, a software P-256 device key).
struct VerifierFixture {
    /// The RP ID and origin the fixture's device and relying party agree on.
    static let rpId = "localhost"
    static let origin = "https://bench.countersign.test"

    /// The relying party, the issued challenge, and the assertion's client data and authenticator data.
    let relyingParty: RelyingParty
    let challenge: [UInt8]
    let clientDataJSON: [UInt8]
    let authenticatorData: [UInt8]
    /// The DER ECDSA signature, as sent over the wire.
    let signature: [UInt8]
    /// The COSE_Key as the server stores it in `credentials.public_key`: base64url text.
    let storedPublicKey: String
    /// The key parsed once, as a cache would hold it.
    let credentialPublicKey: CredentialPublicKey
    /// The bare swift-crypto objects the raw row uses.
    let rawPublicKey: P256.Signing.PublicKey
    let rawSignature: P256.Signing.ECDSASignature
    /// authenticatorData || SHA-256(clientDataJSON): the bytes the device signed.
    let signedData: [UInt8]

    /// Signs one assertion with a new device key, over a random 32-byte challenge.
    init() throws {
        let device = DeviceAuthenticator(rpId: Self.rpId, origin: Self.origin)
        challenge = SecureRandom.bytes(32)
        let assertion = device.makeAssertion(challenge: challenge)
        relyingParty = RelyingParty(id: Self.rpId, name: "Countersign bench", origins: [Self.origin])
        clientDataJSON = assertion.clientDataJSON
        authenticatorData = assertion.authenticatorData
        signature = assertion.signature
        storedPublicKey = Base64URL.encode(device.credentialPublicKeyCOSE)
        credentialPublicKey = try CredentialPublicKey(cose: device.credentialPublicKeyCOSE)
        rawPublicKey = device.privateKey.publicKey
        rawSignature = try P256.Signing.ECDSASignature(derRepresentation: signature)
        signedData = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
    }

    /// Runs the verifier exactly as `BiometricService.checkAssertion` does, with the given key.
    func verify(with key: CredentialPublicKey, verifier: AssertionVerifier) -> Bool {
        do {
            let verified = try verifier.verify(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
                expectedChallenge: challenge, credentialPublicKey: key,
                storedSignCount: 0, userVerificationRequired: true
            )
            return verified.signCount == 1
        } catch {
            return false
        }
    }
}
