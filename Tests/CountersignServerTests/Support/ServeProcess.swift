import AsyncHTTPClient
import CountersignCore
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `countersign serve` as a child process on 127.0.0.1, for tests that need real separate
/// processes (scale-out on one PostgreSQL database, the operator and terminal commands).
final class ServeProcess: @unchecked Sendable { // Process is thread-safe for what is used here.
    let port: Int
    let client: APIClient
    private let process: ChildProcess
    private let logPath: String

    /// Starts the binary on PostgreSQL at `databaseURL`, or on SQLite in `dataDirectory` when nil.
    convenience init(
        databaseURL: String?, dataDirectory: String, http: HTTPClient, extra: [String] = [],
        environment: [String: String] = [:]
    ) async throws {
        try await self.init(http: http, environment: environment.merging(["DATABASE_URL": ""]) { $1 }) { port in
            [
                "serve", "--port", String(port), "--log-level", "warning", "--data-dir", dataDirectory,
                "--origin", LiveServer.origin, "--rp-id", LiveServer.rpId,
            ] + (databaseURL.map { ["--database-url", $0] } ?? []) + extra
        }
    }

    /// Starts `countersign` with `arguments(port)` on a free loopback port and waits for `/health`.
    /// A port taken between the check and the server's bind makes the child exit at once: it is
    /// started again on another port (three tries). A child that exits for any other reason, or is
    /// not healthy within 20 s, fails with its log.
    init(http: HTTPClient, environment: [String: String] = [:], arguments: (Int) -> [String]) async throws {
        var failure = "not started"
        for _ in 0..<3 {
            let port = try LoopbackPort.free()
            let logPath = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-serve-\(UUID().uuidString).log"
            ).path
            let process = try ChildProcess(
                try CommandLineTests.executable().path, arguments(port),
                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, outputPath: logPath
            )
            let client = APIClient(baseURL: "http://127.0.0.1:\(port)", http: http)
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline {
                if (try? await client.get("/health", timeout: .seconds(2)).status) == 200 {
                    self.port = port
                    self.process = process
                    self.logPath = logPath
                    self.client = client
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            process.terminate()
            let status = await process.exited()
            let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: logPath)
            failure = "countersign serve on port \(port) did not become healthy (exit \(status)): \(output)"
            guard output.contains("Address already in use") else { break }
        }
        throw TestFailure(failure)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// What the server wrote to stdout and stderr so far.
    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits without holding a thread; returns the exit status.
    @discardableResult
    func stop() async -> Int32 {
        process.terminate()
        return await process.exited()
    }

    /// SIGTERM, then waits holding the thread: for `defer`, where nothing can be awaited.
    @discardableResult
    func stopBlocking() -> Int32 {
        process.terminate()
        return process.waitUntilExit()
    }

    /// Runs `body` against a `countersign serve` process on a fresh store of `engine`, with a
    /// `fund(phone, amount)` that credits a wallet through the operator command; stops the process,
    /// then runs `countersign audit` on the store, which must pass.
    static func with<T: Sendable>(
        _ engine: DatabaseEngine, extra: [String] = [], environment: [String: String] = [:],
        _ body:
            @escaping @Sendable (_ server: ServeProcess, _ fund: @Sendable (String, Int64) async throws -> Void)
            async throws
            -> T
    ) async throws -> T {
        let run: @Sendable (String?) async throws -> T = { url in
            let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-e2e-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
            let store = ["--data-dir", dataDirectory] + (url.map { ["--database-url", $0] } ?? [])
            let fund: @Sendable (String, Int64) async throws -> Void = { phone, amount in
                let result = try await CommandLineTests.run(
                    ["wallet", "fund", "--phone", phone, "--amount", Currency.ngn.decimal(amount)] + store,
                    environment: ["DATABASE_URL": url ?? ""])
                try #require(result.status == 0, "wallet fund: \(result.output)")
            }
            return try await withHTTPClient { http in
                let server = try await ServeProcess(
                    databaseURL: url, dataDirectory: dataDirectory, http: http, extra: extra, environment: environment)
                let result: T
                do {
                    result = try await body(server, fund)
                } catch {
                    await server.stop()
                    throw error
                }
                #expect(await server.stop() == 0, "the server exits cleanly on SIGTERM: \(server.output)")
                // The operator's audit, as run in production, on what the test left.
                let audit = try await CommandLineTests.run(["audit"] + store, environment: ["DATABASE_URL": url ?? ""])
                #expect(audit.status == 0, "countersign audit: \(audit.output)")
                return result
            }
        }
        if engine == .postgres { return try await TestDatabase.withFreshPostgres { url in try await run(url) } }
        return try await run(nil)
    }
}
