import CountersignHarness
import Synchronization

/// What a `countersign` binary understands, read once from its own `--help`: the bench drives
/// older builds as `--baseline` (a commit from before the rate limits, the PIN allowance or
/// `/metrics`), and leaves out what such a build would refuse rather than changing the build.
struct ServerDialect: Sendable {
    /// The long options `countersign serve --help` names (`metrics-address`, `no-rate-limits`, …).
    let serveOptions: Set<String>
    /// Whether `countersign wallet fund --amount` takes minor units (older builds) rather than
    /// units of the currency.
    let fundsInMinorUnits: Bool

    /// Whether `serve` takes `--name`.
    func serves(_ name: String) -> Bool { serveOptions.contains(name) }

    /// The dialect of `executable`, asked once per binary.
    static func of(_ executable: String) throws -> ServerDialect {
        if let known = known.withLock({ $0[executable] }) { return known }
        let environment = ServerUnderTest.childEnvironment()
        let serve = try ChildProcess.runBlocking(executable, ["serve", "--help"], environment: environment)
        let fund = try ChildProcess.runBlocking(executable, ["wallet", "fund", "--help"], environment: environment)
        guard serve.status == 0, fund.status == 0 else {
            throw BenchError("\(executable) serve --help or wallet fund --help failed:\n\(serve.output)\(fund.output)")
        }
        let dialect = ServerDialect(
            serveOptions: longOptions(in: serve.output), fundsInMinorUnits: fund.output.contains("Minor units"))
        known.withLock { $0[executable] = dialect }
        return dialect
    }

    /// Every `--name` in a help text.
    static func longOptions(in help: String) -> Set<String> {
        var names = Set<String>()
        for word in help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "|" })
        where word.hasPrefix("--") {
            let name = word.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    private static let known = Mutex<[String: ServerDialect]>([:])
}
