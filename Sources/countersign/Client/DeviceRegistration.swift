import CountersignAPI
import CountersignClient
import Foundation
import WebAuthn

/// Creates this terminal's device key and registers it with the server: registration options →
/// a fresh P-256 key sealed under the local PIN → `DeviceAuthenticator.registrationResponse` → verify.
enum DeviceRegistration {
    /// Registers a new key for the logged-in user of `api`, stepping up with the account PIN; the
    /// key file and the local PIN hash go into `profile`. A key that the server refuses is deleted again.
    static func register(
        api: CountersignAPIClient, profile: ClientProfile, accountPIN: String, localPIN: String, origin: String
    ) async throws -> RegistrationVerifyResponse {
        let store = profile.keyStore
        guard !store.exists() else {
            throw CommandFailure("this profile already has a device key (\(store.filePath)); use another --profile")
        }
        let options: RegistrationOptionsResponse
        do {
            options = try await api.registrationOptions(stepUp: RegistrationOptionsRequest(pin: accountPIN))
        } catch {
            throw CommandFailure("the server refused the step-up: \(Formatting.error(error))")
        }
        guard let challenge = Base64URL.decode(options.challenge) else {
            throw CommandFailure("the server sent a challenge that is not base64url")
        }
        let device = try store.create(rpId: options.rp.id, origin: origin, pin: localPIN)
        let registration = device.registrationResponse(challenge: challenge)
        let verified: RegistrationVerifyResponse
        do {
            verified = try await api.registerCredential(registration)
        } catch {
            try? store.delete()
            throw CommandFailure("the server refused the device key: \(Formatting.error(error))")
        }
        try profile.saveLocalPIN(LocalPINVerifier(pin: localPIN, iterations: profile.iterations))
        return verified
    }

    /// The server's default allowed origin for `server`: `http://localhost:<its port>`.
    static func defaultOrigin(for server: String) -> String {
        let url = URL(string: server)
        let port = url?.port ?? (url?.scheme == "https" ? 443 : 80)
        return "http://localhost:\(port)"
    }
}
