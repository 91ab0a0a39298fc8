import CountersignCore
import CountersignHarness
import Foundation

/// The operator CLI (`countersign wallet fund`), run as a short-lived child against the same store
/// as the server under test: how an operator funds wallets, so the bench funds them that way too.
struct OperatorCLI: Sendable {
    /// The server whose binary, data directory and database the CLI uses.
    let server: ServerUnderTest

    /// The most `wallet fund` credits in one call (minor units).
    static let maximumFunding: Int64 = 100_000_000

    /// Credits `amount` minor units to the wallet of `phone`; throws with the CLI's output on failure.
    func fund(phone: String, amount: Int64) async throws {
        // The command takes naira, as an operator types them (older builds took minor units).
        let typed = server.dialect.fundsInMinorUnits ? String(amount) : Currency.ngn.decimal(amount)
        var arguments = ["wallet", "fund", "--phone", phone, "--amount", typed, "--data-dir", server.dataDirectory]
        if let url = server.databaseURL { arguments += ["--database-url", url] }
        let outputPath = server.dataDirectory + "/fund-\(phone).log"
        let child = try ChildProcess(
            server.executable, arguments, environment: ServerUnderTest.childEnvironment(), outputPath: outputPath)
        let status = await child.exited()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outputPath)
        guard status == 0 else {
            throw BenchError("countersign wallet fund --phone \(phone) exited with \(status): \(output)")
        }
    }
}
