import AsyncHTTPClient
import Foundation
import CountersignServer
import Testing

/// `countersign serve` as a child process on 127.0.0.1, for tests that need real separate
/// processes (scale-out on one PostgreSQL database).
final class ServeProcess: @unchecked Sendable {  // Process is thread-safe for what is used here.
    let port: Int
    let client: APIClient
    private let process: Process

    /// Starts the binary on PostgreSQL at `databaseURL`, or on SQLite in `dataDirectory` when nil,
    /// and waits for `/health` (10 s at most).
    init(databaseURL: String?, dataDirectory: String, http: HTTPClient, extra: [String] = []) async throws {
        let port = Int.random(in: 20_000..<40_000)
        let process = Process()
        process.executableURL = try CommandLineTests.executable()
        process.arguments = [
            "serve", "--port", String(port), "--log-level", "warning", "--data-dir", dataDirectory,
            "--origin", LiveServer.origin, "--rp-id", LiveServer.rpId,
        ] + (databaseURL.map { ["--database-url", $0] } ?? []) + extra
        // The store is the one named here, whatever the test process's environment says.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        try process.run()
        self.port = port
        self.process = process
        self.client = APIClient(baseURL: "http://127.0.0.1:\(port)", http: http)
        for _ in 0..<200 {
            if (try? await client.get("/health").status) == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw TestFailure("countersign serve on port \(port) did not become healthy")
    }

    /// SIGTERM, then waits; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `body` against a `countersign serve` process on a fresh store of `engine`, with a
    /// `fund(phone, amount)` that credits a wallet through the operator command; stops the process.
    static func with<T: Sendable>(
        _ engine: DatabaseEngine,
        _ body: @escaping @Sendable (_ server: ServeProcess, _ fund: @Sendable (String, Int64) throws -> Void) async throws -> T
    ) async throws -> T {
        let run: @Sendable (String?) async throws -> T = { url in
            let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-e2e-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let store = ["--data-dir", dataDirectory] + (url.map { ["--database-url", $0] } ?? [])
            let fund: @Sendable (String, Int64) throws -> Void = { phone, amount in
                let result = try CommandLineTests.run(["wallet", "fund", "--phone", phone, "--amount", String(amount)] + store, environment: ["DATABASE_URL": url ?? ""])
                try #require(result.status == 0, "wallet fund: \(result.output)")
            }
            let server: ServeProcess
            do {
                server = try await ServeProcess(databaseURL: url, dataDirectory: dataDirectory, http: http)
            } catch {
                try? await http.shutdown()
                throw error
            }
            do {
                let result = try await body(server, fund)
                #expect(server.stop() == 0, "the server exits cleanly on SIGTERM")
                try await http.shutdown()
                return result
            } catch {
                server.stop()
                try? await http.shutdown()
                throw error
            }
        }
        if engine == .postgres { return try await TestDatabase.withFreshPostgres { url in try await run(url) } }
        return try await run(nil)
    }
}
