import ArgumentParser

/// The `countersign` command: the server, its operator tools and the terminal app (client commands).
@main
struct Countersign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countersign",
        abstract: "Payment authorization with device-bound keys: server, operator tools and the terminal app.",
        subcommands: [
            Serve.self, Migrate.self, Wallet.self, OperatorCommand.self, Audit.self, Backup.self, Restore.self,
            WebAuthnCommand.self, MetadataCommand.self, WebhooksCommand.self,
            Signup.self, Login.self, Logout.self, PinCommand.self, AccountCommand.self, DeviceCommand.self,
            Dashboard.self, Send.self, AirtimeCommand.self, LimitsCommand.self,
            Sell.self, BidCommand.self, Buy.self, OrderCommand.self, ReverseCommand.self, Demo.self,
        ]
    )
}
