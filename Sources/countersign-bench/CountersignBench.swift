import ArgumentParser

/// `countersign-bench`: measures the WebAuthn verifier in-process and whole payment flows against a
/// real `countersign serve` child process. Not run by CI; see docs/benchmarks.md for figures and method.
@main
struct CountersignBench: AsyncParsableCommand {
    /// The tool's name, help and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "countersign-bench",
        abstract: "Benchmarks for Countersign: the assertion verifier and end-to-end payment flows.",
        subcommands: [VerifierCommand.self, FlowsCommand.self, StreamsCommand.self]
    )
}
