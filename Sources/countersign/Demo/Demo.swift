import ArgumentParser
import Foundation

/// `countersign demo`: one command for a newcomer. An embedded server, two users with devices,
/// and eight payments through the SDK (transfers, airtime, marketplace checkouts), each screen printed; exit 0 only if every outcome was the
/// expected one.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run an embedded server and eight payments through the terminal app's screens.")

    func run() async throws {
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-demo-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        print("Starting an embedded Countersign server (SQLite in \(directory))")
        let checks = try await EmbeddedServer.run(dataDirectory: directory + "/server") { server in
            print("Server on \(server.baseURL), relying party localhost, origin \(server.origin)\n")
            return try await DemoScenarios.run(server: server, directory: directory)
        }
        let elapsed = started.duration(to: .now)
        print("\n── Summary ──")
        for check in checks {
            print(
                "\(check.passed ? "PASS" : "FAIL")  \(check.scenario.padding(toLength: 50, withPad: " ", startingAt: 0)) \(check.detail)"
            )
        }
        let passed = checks.filter(\.passed).count
        print(
            "\(passed) of \(checks.count) outcomes as expected, in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))"
        )
        if passed != checks.count { throw ExitCode(1) }
    }
}
