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
    /// The token that lets this device sign in again with the PIN alone.
    package let deviceToken: String?

    /// Signup with a code read from the server's SMS simulator, then registration of a new device
    /// key stepped up with the PIN (a signup's session may, for ten minutes), for `origin`.
    package static func enroll(
        over transport: any HTTPTransport, phone: String, pin: String = "4827", name: String, origin: String,
        attestation: DeviceAuthenticator.Attestation = .none
    ) async throws -> EnrolledUser {
        let api = CountersignAPIClient(transport: transport)
        let session = try await signup(api, phone: phone, name: name, pin: pin)
        let device = try await api.registerDevice(
            stepUp: RegistrationOptionsRequest(pin: pin), origin: origin, attestation: attestation)
        return EnrolledUser(
            phone: phone, pin: pin, userId: session.userId, sessionToken: session.sessionToken, device: device,
            deviceToken: session.deviceToken)
    }

    /// Asks for a signup code, reads it from the server's SMS simulator, and signs up with it.
    package static func signup(_ api: CountersignAPIClient, phone: String, name: String, pin: String) async throws
        -> SessionResponse
    {
        let code = try await simulatedCode(api, phone: phone, purpose: .signup)
        return try await api.signup(
            SignupRequest(verificationId: code.verificationId, code: code.code, name: name, pin: pin))
    }

    /// Asks for a code for `purpose` and reads it from the server's SMS simulator.
    package static func simulatedCode(_ api: CountersignAPIClient, phone: String, purpose: VerificationPurpose)
        async throws -> (verificationId: String, code: String)
    {
        let before = try await api.simulatedMessages(to: phone).messages.count
        let verification = try await api.requestCode(phone: phone, purpose: purpose)
        let code = try await api.simulatedCode(to: phone, after: before)
        return (verification.verificationId, code)
    }
}
