import CountersignClient
import CountersignHarness
import Foundation

/// The `countersign serve` child the flows benchmark drives: release binary, loopback only, a
/// fresh data directory, and (optionally) a PostgreSQL URL.
struct ServerUnderTest: Sendable {
    /// The origin and RP ID the bench's device keys use; the server is started to accept them.
    static let origin = "https://bench.countersign.test"
    static let rpId = "localhost"

    /// The child, the binary it runs, where it listens, and its data directory, database and log.
    let process: ChildProcess
    let executable: String
    let port: Int
    let dataDirectory: String
    let databaseURL: String?
    let logPath: String
    /// What the binary understands (an older `--baseline` build lacks some options).
    let dialect: ServerDialect
    /// Whether the server serves `/metrics` (an older build has no `--metrics-address`).
    let servesMetrics: Bool

    /// The server's loopback address.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The `countersign` binary built next to this bench binary (same scratch path and configuration).
    static func siblingExecutable() -> String {
        let bench =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (bench as NSString).deletingLastPathComponent + "/countersign"
    }

    /// Every rate-limit bucket the server has, for `rateLimited` launches.
    static let raisedRateLimits = [
        "signup-address", "login-address", "login-phone", "pin-account", "challenge-account", "challenge-address",
        "operator-audit", "operator-search", "sms-number", "sms-resend", "sms-address", "sms-account", "sms-country",
        "transfer-account",
    ]

    /// Starts the server, with `/metrics` on `metricsAddress` when given and served, the rate limits off
    /// unless `rateLimited`, and `extraArguments` last; it is not ready until `waitUntilHealthy` returns.
    static func launch(
        executable: String, dataDirectory: String, databaseURL: String?, metricsAddress: String? = nil,
        rateLimited: Bool = false, extraArguments: [String] = []
    ) throws -> ServerUnderTest {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchError(
                "no server binary at \(executable); build it with `swift build -c release --scratch-path .build-release --product countersign` or pass --server"
            )
        }
        let port = try LoopbackPort.free()
        let dialect = try ServerDialect.of(executable)
        var arguments = [
            "serve", "--host", "127.0.0.1", "--port", "\(port)", "--data-dir", dataDirectory,
            "--origin", origin, "--rp-id", rpId,
        ]
        // Top-ups without a key pay by PIN, far past what the PIN alone may pay between passkeys
        // (a build without the allowance has no such flag).
        if dialect.serves("no-pin-allowance") { arguments.append("--no-pin-allowance") }
        // Every simulated user signs up from 127.0.0.1, far past the signup limit: the limits are off,
        // or, to measure what counting costs, raised past anything the load sends (a build without
        // rate limits has neither flag).
        if rateLimited, dialect.serves("rate-limit") {
            arguments += raisedRateLimits.flatMap { ["--rate-limit", "\($0)=1000000/1"] }
        } else if dialect.serves("no-rate-limits") {
            arguments.append("--no-rate-limits")
        }
        if let databaseURL { arguments += ["--database-url", databaseURL] }
        let servesMetrics = metricsAddress != nil && dialect.serves("metrics-address")
        if let metricsAddress, servesMetrics { arguments += ["--metrics-address", metricsAddress] }
        arguments += extraArguments
        let logPath = dataDirectory + "/server.log"
        let process = try ChildProcess(executable, arguments, environment: childEnvironment(), outputPath: logPath)
        ChildGuard.watch(process)
        return ServerUnderTest(
            process: process, executable: executable, port: port, dataDirectory: dataDirectory,
            databaseURL: databaseURL, logPath: logPath, dialect: dialect, servesMetrics: servesMetrics)
    }

    /// Polls `GET /health` until it answers 200; fails if the child exits or `seconds` pass.
    func waitUntilHealthy(seconds: Double = 60) async throws {
        let executor = DedicatedThreadExecutor(name: "bench health check")
        defer { executor.shutdown() }
        let transport = LoopbackSocketTransport(port: port)
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let status = process.poll() {
                throw BenchError("the server exited with status \(status) before it was healthy:\n\(logTail())")
            }
            let health = try? await executor.run {
                try await transport.send(TransportRequest(method: "GET", path: "/health"))
            }
            if health?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("the server did not answer /health within \(Int(seconds)) s:\n\(logTail())")
    }

    /// The environment to pass on to the server and the CLI: this process's, without the
    /// variables the server would read in place of the flags the bench gives it (a stray
    /// DATABASE_URL would turn a SQLite run into a PostgreSQL one).
    static func childEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in
            key != "DATABASE_URL" && key != "PORT" && !key.hasPrefix("COUNTERSIGN_")
        }
    }

    /// Memory and CPU so far, or nil if the child has gone.
    func stats() -> ProcessStats? {
        ProcessStats.read(pid: process.pid)
    }

    /// Stops the server (graceful, then forced) and stops guarding it.
    func stop() {
        ChildGuard.release()
        process.stop()
    }

    /// The last lines of the server's log, for error messages.
    func logTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log at \(logPath))"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}
