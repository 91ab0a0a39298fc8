import CountersignAPI
import CountersignCodec

extension CountersignAPIClient {
    /// Registers a new software device key (P-256) for the signed-in user: registration options
    /// under `stepUp` → a fresh `DeviceAuthenticator` for the server's RP ID and `origin` → verify.
    /// Returns the registered authenticator; an app keeps it (e.g. in a `DeviceKeyStore`) to sign with.
    public func registerDevice(
        stepUp: RegistrationOptionsRequest, origin: String, attestation: DeviceAuthenticator.Attestation = .none
    ) async throws -> DeviceAuthenticator {
        let options = try await registrationOptions(stepUp: stepUp)
        guard let challenge = Base64URL.decode(options.challenge) else {
            throw CountersignClientError.decoding("registration options: the challenge is not base64url")
        }
        let device = DeviceAuthenticator(rpId: options.rp.id, origin: origin)
        _ = try await registerCredential(device.registrationResponse(challenge: challenge, attestation: attestation))
        return device
    }
}
