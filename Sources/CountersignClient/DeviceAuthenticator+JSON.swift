import CountersignAPI
import CountersignCodec

extension DeviceAuthenticator {
    /// A registration of this credential over `challenge`, as `POST /biometric/register/verify` takes it.
    /// The other parameters are `makeRegistration`'s.
    public func registrationResponse(
        challenge: [UInt8], userVerified: Bool = true, attestation: Attestation = .none,
        backup: BackupFlags = .deviceBound, aaguid: [UInt8] = [UInt8](repeating: 0, count: 16),
        certificate: AttestationCertificate? = nil
    ) -> RegistrationResponseJSON {
        let made = makeRegistration(
            challenge: challenge, userVerified: userVerified, attestation: attestation, backup: backup, aaguid: aaguid,
            certificate: certificate)
        let id = Base64URL.encode(credentialId)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: AttestationResponseJSON(
                clientDataJSON: Base64URL.encode(made.clientDataJSON),
                attestationObject: Base64URL.encode(made.attestationObject),
                transports: ["internal"]
            ))
    }

    /// An assertion over `challenge`, as `POST /biometric/auth/verify` and a transfer's
    /// authorization take it. The signature counter rises by one.
    public func assertionResponse(challenge: [UInt8], userVerified: Bool = true, backup: BackupFlags = .deviceBound)
        -> AuthenticationResponseJSON
    {
        let signed = makeAssertion(challenge: challenge, userVerified: userVerified, backup: backup)
        let id = Base64URL.encode(credentialId)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: AssertionResponseJSON(
                clientDataJSON: Base64URL.encode(signed.clientDataJSON),
                authenticatorData: Base64URL.encode(signed.authenticatorData),
                signature: Base64URL.encode(signed.signature)
            ))
    }
}
