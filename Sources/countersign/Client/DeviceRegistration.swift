import CountersignAPI
import CountersignClient
import Foundation
import WebAuthn

/// Creates this terminal's device key and registers it with the server: registration options →
/// a fresh P-256 key sealed under the local PIN → `DeviceAuthenticator.registrationResponse` → verify.
enum DeviceRegistration {
    /// Registers a new key for the logged-in user of `api`, stepping up with the account PIN and,
    /// when the server asks for it (a session that did not just prove the number), a code sent to
    /// `phone` from `codes`; the key file and the local PIN hash go into `profile`. A key that the
    /// server refuses is deleted again.
    static func register(
        api: CountersignAPIClient, profile: ClientProfile, accountPIN: String, localPIN: String, origin: String,
        phone: String, codes: PhoneCodeOptions?
    ) async throws -> RegistrationVerifyResponse {
        let store = profile.keyStore
        guard !store.exists() else {
            throw CommandFailure("this profile already has a device key (\(store.filePath)); use another --profile")
        }
        let options: RegistrationOptionsResponse
        do {
            do {
                options = try await api.registrationOptions(stepUp: RegistrationOptionsRequest(pin: accountPIN))
            } catch let error as CountersignClientError where error.errorCode == .phoneCodeRequired {
                guard let codes else { throw error }
                print("Adding a device key with the PIN needs a code sent to your number too.")
                let code = try await codes.obtain(api: api, phone: phone, purpose: .bindDevice)
                options = try await api.registrationOptions(
                    stepUp: RegistrationOptionsRequest(
                        pin: accountPIN, verificationId: code.verificationId, code: code.code))
            }
        } catch let failure as CommandFailure {
            throw failure
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
