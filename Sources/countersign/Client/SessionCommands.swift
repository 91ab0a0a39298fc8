import ArgumentParser
import CountersignAPI
import CountersignClient

/// `countersign signup --phone P --name N --pin PIN`: proves the number with a code sent to it,
/// creates the account and keeps its session.
struct Signup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account and log in (client).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var codes: PhoneCodeOptions
    @Option(help: "Your phone number; it is also your login. A code is sent to it.") var phone: String
    @Option(help: "Your display name.") var name: String
    @Option(help: "Your account PIN, 4 to 6 digits, not one of the commonest (the server checks it).") var pin: String

    func run() async throws {
        let profile = client.clientProfile()
        let api = client.apiClient()
        let code = try await codes.obtain(api: api, phone: phone, purpose: .signup)
        let session = try await SessionStart.call {
            try await api.signup(
                SignupRequest(verificationId: code.verificationId, code: code.code, name: name, pin: pin))
        }
        try profile.save(.init(server: client.serverURL(), phone: phone, sessionToken: session.sessionToken))
        try profile.rememberDevice(phone: phone, token: session.deviceToken)
        print("Signed up \(phone) (user \(session.userId)); session saved in \(profile.sessionPath)")
    }
}

/// `countersign login --phone P --pin PIN`: starts a session. A terminal that never held a session
/// of this account proves the number with a code as well; it is remembered afterwards.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Log in with your phone number and account PIN (client).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var codes: PhoneCodeOptions
    @Option(help: "The phone number you signed up with.") var phone: String
    @Option(help: "Your account PIN.") var pin: String

    func run() async throws {
        let profile = client.clientProfile()
        let api = client.apiClient()
        let remembered = profile.deviceToken(for: phone)
        let session: SessionResponse
        do {
            session = try await api.login(LoginRequest(phone: phone, pin: pin, deviceToken: remembered))
        } catch let error as CountersignClientError where error.errorCode == .phoneCodeRequired {
            print("This terminal is new to the account: proving the number with a code.")
            let code = try await codes.obtain(api: api, phone: phone, purpose: .login)
            session = try await SessionStart.call {
                try await api.login(
                    LoginRequest(phone: phone, pin: pin, verificationId: code.verificationId, code: code.code))
            }
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
        try profile.save(.init(server: client.serverURL(), phone: phone, sessionToken: session.sessionToken))
        try profile.rememberDevice(phone: phone, token: session.deviceToken)
        print("Logged in as \(phone) (user \(session.userId))")
    }
}

/// `countersign logout`: revokes the session on the server and forgets it here.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End the session on the server and here (client).")

    @OptionGroup var client: ClientOptions

    func run() async throws {
        let (profile, session, api) = try client.loggedIn()
        let revoked: Bool
        do {
            try await api.logout()
            revoked = true
        } catch {
            print("The server did not confirm the logout: \(Formatting.error(error))")
            revoked = false
        }
        profile.clearSession()
        print("Logged out \(session.phone)\(revoked ? "" : " here (the server session may still be open)")")
    }
}

/// Turns a refused signup or login into a one-line failure.
enum SessionStart {
    static func call(_ body: () async throws -> SessionResponse) async throws -> SessionResponse {
        do {
            return try await body()
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
    }
}
