import CountersignAPI
import CountersignClient
import Foundation
import WebAuthn

/// A signed-up user with a registered software device key and a funded wallet: one per client.
struct BenchUser: Sendable {
    /// The login, the bearer token of the signup session, and the registered software authenticator.
    let phone: String
    let sessionToken: String
    let device: DeviceAuthenticator

    /// Phone numbers unique to this run (a random 6-digit run prefix), so runs against a reused
    /// PostgreSQL database never collide with earlier users.
    static func phones(count: Int) -> [String] {
        let run = Int.random(in: 0..<100_000)
        return (0..<count).map { "09" + String(format: "%05d%04d", run, $0) }
    }

    /// Signup → registration options → software device key → registration verify, over HTTP.
    static func enroll(phone: String, api: BenchAPI) async throws -> BenchUser {
        let signup = try await api.post("/auth/signup", SignupRequest(phone: phone, name: "Bench \(phone.suffix(4))", pin: "1234"))
        guard signup.status == 201 else { throw BenchError("signup \(phone): \(signup.status) \(signup.errorCode ?? "")") }
        let session = try signup.decode(SessionResponse.self)

        let optionsResponse = try await api.post("/biometric/register/options", RegistrationOptionsRequest(pin: "1234"), token: session.sessionToken)
        guard optionsResponse.status == 200 else { throw BenchError("register options: \(optionsResponse.status) \(optionsResponse.errorCode ?? "")") }
        let options = try optionsResponse.decode(RegistrationOptionsResponse.self)
        guard let challenge = Base64URL.decode(options.challenge) else { throw BenchError("register options: challenge is not base64url") }

        let device = DeviceAuthenticator(rpId: ServerUnderTest.rpId, origin: ServerUnderTest.origin)
        let registration = device.makeRegistration(challenge: challenge)
        let credentialId = Base64URL.encode(device.credentialId)
        let body = RegistrationResponseJSON(
            id: credentialId, rawId: credentialId,
            response: .init(clientDataJSON: Base64URL.encode(registration.clientDataJSON),
                            attestationObject: Base64URL.encode(registration.attestationObject), transports: ["internal"])
        )
        let verify = try await api.post("/biometric/register/verify", body, token: session.sessionToken)
        guard verify.status == 201 else { throw BenchError("register verify: \(verify.status) \(verify.errorCode ?? "")") }
        return BenchUser(phone: phone, sessionToken: session.sessionToken, device: device)
    }

    /// `count` enrolled and funded users. Enrolment runs concurrently (signup's PBKDF2 dominates);
    /// funding runs the CLI a few at a time (each is a process opening the store).
    static func prepare(count: Int, api: BenchAPI, cli: OperatorCLI, funding: Int64) async throws -> [BenchUser] {
        let phones = phones(count: count)
        let users = try await withThrowingTaskGroup(of: BenchUser.self) { group in
            for phone in phones { group.addTask { try await enroll(phone: phone, api: api) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for batch in stride(from: 0, to: users.count, by: 4) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users[batch..<min(batch + 4, users.count)] {
                    group.addTask { try await cli.fund(phone: user.phone, amount: funding) }
                }
                try await group.waitForAll()
            }
        }
        return users
    }
}
