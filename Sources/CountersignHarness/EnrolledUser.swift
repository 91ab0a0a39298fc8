import CountersignAPI
import CountersignClient

/// A user signed up through the SDK with a software device key registered: what each of the
/// bench's clients and most server tests start from. Funding is left to the caller, which knows
/// how its server is reached (in process, or through the operator command).
package struct EnrolledUser: Sendable {
    /// The login and PIN, the user's id and the session that signup started.
    package let phone: String
    package let pin: String
    package let userId: String
    package let sessionToken: String
    /// The registered software authenticator.
    package let device: DeviceAuthenticator

    /// Signup, then registration of a new device key stepped up with the PIN, for `origin`.
    package static func enroll(
        over transport: any HTTPTransport, phone: String, pin: String = "1234", name: String, origin: String,
        attestation: DeviceAuthenticator.Attestation = .none
    ) async throws -> EnrolledUser {
        let api = CountersignAPIClient(transport: transport)
        let session = try await api.signup(SignupRequest(phone: phone, name: name, pin: pin))
        let device = try await api.registerDevice(
            stepUp: RegistrationOptionsRequest(pin: pin), origin: origin, attestation: attestation)
        return EnrolledUser(
            phone: phone, pin: pin, userId: session.userId, sessionToken: session.sessionToken, device: device)
    }
}
