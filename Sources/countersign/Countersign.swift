import ArgumentParser

/// The `countersign` command: the server and its operator tools.
@main
struct Countersign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countersign",
        abstract: "Payment authorization with device-bound keys: server and operator tools.",
        subcommands: [Serve.self, Migrate.self, Wallet.self, WebAuthnCommand.self]
    )
}
