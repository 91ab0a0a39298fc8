import Crypto
import X509

/// The `fido-u2f` attestation statement format (WebAuthn §8.6): `{x5c: [attCert], sig}`.
enum FIDOU2FAttestation {
    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        let signature = try AttestationCertificates.signature(input.statement)
        let (certificates, der) = try AttestationCertificates.parse(input.statement[text: "x5c"])
        // §8.6 step 2: exactly one certificate, whose key is an EC key on P-256.
        guard certificates.count == 1 else {
            throw WebAuthnError(.malformedAttestation, "fido-u2f x5c must hold exactly one certificate")
        }
        guard P256.Signing.PublicKey(certificates[0].publicKey) != nil else {
            throw WebAuthnError(.attestationFailed, "fido-u2f attestation certificate key is not on P-256")
        }
        // §8.6 steps 3–4: the credential key is an uncompressed P-256 point 0x04 || x || y.
        guard case .p256 = input.credentialKey.backing,
            let x = input.credentialKeyCOSE[int: -2]?.bytesValue, let y = input.credentialKeyCOSE[int: -3]?.bytesValue,
            let attested = input.authData.attestedCredentialData
        else {
            throw WebAuthnError(.attestationFailed, "fido-u2f credentials must be ES256 keys on P-256")
        }
        // §8.6 step 5: verificationData = 0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F.
        var verificationData: [UInt8] = [0x00]
        verificationData += input.authData.rpIdHash
        verificationData += input.clientDataHash
        verificationData += attested.credentialId
        verificationData += [0x04] + x + y
        try AttestationCertificates.verify(
            signature: signature, over: verificationData, by: certificates[0], algorithm: .es256)
        return AttestationResult(type: .basic, trustPath: der)
    }
}
