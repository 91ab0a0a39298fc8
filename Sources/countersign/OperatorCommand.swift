import ArgumentParser
import CountersignServer

/// `countersign operator grant|revoke --phone P`: who may use the operator console. Each change is
/// itself recorded in the operator action log, as done from the command line.
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator", abstract: "Grant or revoke operator rights.", subcommands: [Grant.self, Revoke.self])

    /// `countersign operator grant --phone P`.
    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a user an operator.")
        @OptionGroup var store: StoreOptions
        @Option(help: "The user's phone number.") var phone: String

        func run() async throws { try await OperatorCommand.set(phone: phone, true, store: store) }
    }

    /// `countersign operator revoke --phone P`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a user's operator rights away.")
        @OptionGroup var store: StoreOptions
        @Option(help: "The user's phone number.") var phone: String

        func run() async throws { try await OperatorCommand.set(phone: phone, false, store: store) }
    }

    static func set(phone: String, _ isOperator: Bool, store: StoreOptions) async throws {
        try await store.withExistingStore { services in
            let userId = try await services.operators.setOperator(phone: phone, isOperator)
            print(
                isOperator ? "\(phone) (\(userId)) is now an operator" : "\(phone) (\(userId)) is no longer an operator"
            )
        }
    }
}
