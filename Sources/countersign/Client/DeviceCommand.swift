import ArgumentParser
import CountersignClient

/// `countersign device register --pin PIN --local-pin PIN [--origin O]`: binds this terminal to the account.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "This terminal's device key (client).", subcommands: [Register.self])

    /// Creates the device key, sealed under the local PIN, and registers it with the server.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the device key and register it with the server.")

        @OptionGroup var client: ClientOptions
        @OptionGroup var codes: PhoneCodeOptions

        @Option(name: .customLong("pin"), help: "The account PIN: adding a device key needs it (step-up).")
        var accountPIN: String?

        @Option(
            name: .customLong("local-pin"),
            help: "The local PIN: it seals the device key and is asked before each signature.")
        var localPIN: String?

        @Option(
            help: "The WebAuthn origin to sign as (default http://localhost:<port of --server>, the server's default).")
        var origin: String?

        func run() async throws {
            let (profile, session, api) = try client.loggedIn()
            try TerminalInput.require(accountPIN, flag: "--pin", question: "Account PIN")
            guard let accountPIN = accountPIN ?? TerminalInput.secret("Account PIN") else {
                throw CommandFailure("no account PIN given")
            }
            try TerminalInput.require(localPIN, flag: "--local-pin", question: "Local PIN")
            guard
                let pin = localPIN
                    ?? TerminalInput.secret(
                        "Choose a local PIN for this terminal (it seals the device key; not your account PIN)")
            else {
                throw CommandFailure("no local PIN given")
            }
            // Two secrets with two jobs: the account PIN is checked by the server, the local PIN only
            // here. The same digits for both would let a stolen key file be opened by a guess that
            // never reaches the server's lockout.
            guard pin != accountPIN else {
                throw CommandFailure(
                    "Choose a local PIN that differs from your account PIN: the local PIN opens this terminal's key "
                        + "without asking the server, so it must not be the PIN that approves payments.")
            }
            let origin = origin ?? DeviceRegistration.defaultOrigin(for: client.serverURL(session))
            let verified = try await DeviceRegistration.register(
                api: api, profile: profile, accountPIN: accountPIN, localPIN: pin, origin: origin, phone: session.phone,
                codes: codes)
            print("Device registered for \(session.phone): credential \(verified.credentialId), origin \(origin)")
            print("The key is sealed under the local PIN in \(profile.keyStore.filePath)")
        }
    }
}
