import ArgumentParser
import CountersignAPI
import CountersignClient

/// `countersign signup --phone P --name N --pin PIN`: creates the account and keeps its session.
struct Signup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account and log in (client).")

    @OptionGroup var client: ClientOptions
    @Option(help: "Your phone number; it is also your login.") var phone: String
    @Option(help: "Your display name.") var name: String
    @Option(help: "Your account PIN, 4 to 6 digits (the server checks it).") var pin: String

    func run() async throws {
        let profile = client.clientProfile()
        let api = client.apiClient()
        let session = try await SessionStart.call {
            try await api.signup(SignupRequest(phone: phone, name: name, pin: pin))
        }
        try profile.save(.init(server: client.serverURL(), phone: phone, sessionToken: session.sessionToken))
        print("Signed up \(phone) (user \(session.userId)); session saved in \(profile.sessionPath)")
    }
}

/// `countersign login --phone P --pin PIN`: starts a session.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Log in with your phone number and account PIN (client).")

    @OptionGroup var client: ClientOptions
    @Option(help: "The phone number you signed up with.") var phone: String
    @Option(help: "Your account PIN.") var pin: String

    func run() async throws {
        let profile = client.clientProfile()
        let api = client.apiClient()
        let session = try await SessionStart.call { try await api.login(LoginRequest(phone: phone, pin: pin)) }
        try profile.save(.init(server: client.serverURL(), phone: phone, sessionToken: session.sessionToken))
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
