import AsyncHTTPClient
import Foundation
import Testing

/// `countersign serve` as a child process on 127.0.0.1, for tests that need real separate
/// processes (scale-out on one PostgreSQL database).
final class ServeProcess: @unchecked Sendable {  // Process is thread-safe for what is used here.
    let port: Int
    let client: APIClient
    private let process: Process

    /// Starts the binary and waits for `/health` (10 s at most).
    init(databaseURL: String, dataDirectory: String, http: HTTPClient, extra: [String] = []) async throws {
        let port = Int.random(in: 20_000..<40_000)
        let process = Process()
        process.executableURL = try CommandLineTests.executable()
        process.arguments = [
            "serve", "--port", String(port), "--log-level", "warning", "--data-dir", dataDirectory, "--database-url", databaseURL,
            "--origin", LiveServer.origin, "--rp-id", LiveServer.rpId,
        ] + extra
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
}
