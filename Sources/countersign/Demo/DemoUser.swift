import CountersignAPI
import CountersignClient
import CountersignClientAsyncHTTP
import Foundation
import Synchronization

/// A demo user with a terminal profile of their own: signed up, device registered.
struct DemoUser: Sendable {
    let name: String
    let phone: String
    let accountPIN: String
    let localPIN: String
    let profile: ClientProfile
    let api: CountersignAPIClient

    /// Signs `name` up on `server` and registers a device key in `directory`.
    static func create(
        name: String, phone: String, accountPIN: String, localPIN: String, server: EmbeddedServer, directory: String
    ) async throws -> DemoUser {
        // Demo speed: a tenth of the SDK's PBKDF2 rounds for the sealed key and the local PIN hash.
        let profile = ClientProfile(directory: directory, iterations: 10_000)
        try profile.prepare()
        let api = CountersignAPIClient(transport: AsyncHTTPClientTransport(baseURL: server.baseURL))
        // The code a phone would receive, read from the embedded server's SMS simulator.
        let before = try await api.simulatedMessages(to: phone).messages.count
        let verification = try await api.requestCode(phone: phone, purpose: .signup)
        let code = try await api.simulatedCode(to: phone, after: before)
        let session = try await api.signup(
            SignupRequest(verificationId: verification.verificationId, code: code, name: name, pin: accountPIN))
        try profile.save(.init(server: server.baseURL, phone: phone, sessionToken: session.sessionToken))
        try profile.rememberDevice(phone: phone, token: session.deviceToken)
        let registered = try await DeviceRegistration.register(
            api: api, profile: profile, accountPIN: accountPIN, localPIN: localPIN, origin: server.origin,
            phone: phone, codes: nil)
        print(
            "  \(name) (\(phone)) proved the number with the SMS code \(code), signed up; device key \(registered.credentialId.prefix(12))… registered for \(server.origin)"
        )
        return DemoUser(
            name: name, phone: phone, accountPIN: accountPIN, localPIN: localPIN, profile: profile, api: api)
    }

    /// The wallet balance now.
    func balance() async throws -> Int64 { try await api.wallet().balance }
}

/// The PINs a demo user "types", in order, each shown masked; nil is a cancelled prompt. A prompt
/// beyond the script is a cancel too, and is reported, since the scenario did not expect it.
final class ScriptedPINs: PINPrompt {
    private let answers: Mutex<[String?]>

    init(_ answers: [String?]) { self.answers = Mutex(answers) }

    func requestPIN(reason: String, attempt: Int) async -> String? {
        let next = answers.withLock { $0.isEmpty ? String??.none : .some($0.removeFirst()) }
        guard case .some(let answer) = next else {
            print("  Local PIN (\(reason)): not expected by the scenario; cancelled")
            return nil
        }
        print(
            "  Local PIN (\(reason)), attempt \(attempt): \(answer.map { String(repeating: "•", count: $0.count) } ?? "cancelled")"
        )
        return answer
    }
}
