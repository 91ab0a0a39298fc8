import AsyncHTTPClient
import CountersignAPI
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `/metrics`: on its own listener only, in the Prometheus text format, and moving under load.
@Suite("Metrics")
struct MetricsTests {
    /// A parsed Prometheus text exposition: each sample by its name and labels as written.
    struct Exposition: CustomStringConvertible {
        let samples: [String: Double]
        let text: String

        /// Parses `text`, failing on any line that is neither a comment nor a well-formed sample.
        init(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let sample =
                /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})?) (-?[0-9.]+(?:[eE][+-]?[0-9]+)?|NaN|[+-]Inf)$/
            var samples: [String: Double] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let match = try #require(try sample.wholeMatch(in: String(line)), "not a sample: \(line)")
                samples[String(match.1)] = Double(match.2) ?? .nan
            }
            (self.samples, self.text) = (samples, text)
        }

        /// The sum of every sample named `name` whose labels include all of `labels`.
        func total(_ name: String, _ labels: [String: String] = [:]) -> Double {
            samples.filter { key, _ in
                let (sampleName, sampleLabels) = Self.split(key)
                return sampleName == name && labels.allSatisfy { sampleLabels[$0.key] == $0.value }
            }.values.reduce(0, +)
        }

        /// Every label set of the samples named `name`.
        func labelSets(_ name: String) -> [[String: String]] {
            samples.keys.map(Self.split).filter { $0.0 == name }.map(\.1)
        }

        var description: String { text }

        private static func split(_ key: String) -> (String, [String: String]) {
            guard let brace = key.firstIndex(of: "{") else { return (key, [:]) }
            var labels: [String: String] = [:]
            for pair in key[key.index(after: brace)..<key.index(before: key.endIndex)].split(separator: "\",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                labels[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return (String(key[..<brace]), labels)
        }
    }

    static func scrape(_ server: LiveServer) throws -> Exposition {
        try Exposition(String(decoding: server.services.metrics.exposition(), as: UTF8.self))
    }

    @Test(
        "countersign-bench flows --metrics-port: between the scrape before the load and the one after, requests, payments, authorizations, challenges, tokens and database timings moved"
    )
    func underBench() async throws {
        let bench = try CommandLineTests.executable().deletingLastPathComponent().appendingPathComponent(
            "countersign-bench")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-bench-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The bench scrapes the server itself, before and after the load: no race with a busy machine.
        let (status, output) = try await ChildProcess.run(
            bench.path,
            [
                "flows", "--clients", "2", "--warmup", "0.2", "--seconds", "1", "--max-flows", "400", "--json",
                directory.appendingPathComponent("flows.json").path, "--metrics-port", String(try LoopbackPort.free()),
                "--metrics-snapshots", directory.path,
            ], environment: ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" })
        #expect(status == 0, "\(output)")
        let read = { (name: String) throws -> Exposition in
            try Exposition(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
        let (first, last) = (try read("metrics-before.prom"), try read("metrics-after.prom"))
        let moved: [(String, [String: String])] = [
            ("countersign_http_requests_total", ["route": "/user/topup", "status": "200"]),
            ("countersign_http_request_duration_seconds_count", ["route": "/biometric/auth/verify"]),
            ("countersign_payments_total", ["kind": "topup", "outcome": "completed"]),
            ("countersign_authorizations_total", ["factor": "biometric", "outcome": "accepted"]),
            ("countersign_challenges_issued_total", ["purpose": "payment"]),
            ("countersign_tokens_issued_total", [:]),
            ("countersign_db_duration_seconds_count", ["operation": "transaction"]),
            ("countersign_db_wait_seconds_count", ["operation": "read"]),
            ("countersign_db_statements_total", ["engine": "sqlite"]),
        ]
        for (name, labels) in moved {
            #expect(last.total(name, labels) > first.total(name, labels), "\(name) \(labels) did not move:\n\(last)")
        }
        // Enrolment came before the first scrape: the registrations are in both, unchanged.
        #expect(first.total("countersign_challenges_issued_total", ["purpose": "registration"]) == 2)
        #expect(last.total("countersign_challenges_issued_total", ["purpose": "registration"]) == 2)
    }

    @Test("the public port has no /metrics; the metrics listener serves nothing else", arguments: TestEngines.all)
    func onlyItsOwnListener(engine: DatabaseEngine) async throws {
        let metricsPort = try LoopbackPort.free()
        try await ServeProcess.with(engine, extra: ["--metrics-address", "127.0.0.1:\(metricsPort)"]) { server, _ in
            #expect(try await server.client.get("/metrics").status == 404)
            try await withHTTPClient { http in
                for (path, status) in [("/metrics", 200), ("/", 404), ("/health", 404), ("/metrics/../user", 404)] {
                    let request = HTTPClientRequest(url: "http://127.0.0.1:\(metricsPort)\(path)")
                    let response = try await http.execute(request, timeout: .seconds(5))
                    #expect(Int(response.status.code) == status, "\(path)")
                }
            }
        }
    }

    @Test("serve refuses a malformed --metrics-address, or the API's own port, before it opens a store")
    func badAddress() async throws {
        for address in ["9464", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:70000", ":9464", "127.0.0.1:8080"] {
            let result = try await CommandLineTests.run(
                ["serve", "--port", "8080", "--metrics-address", address, "--data-dir", "/nonexistent/never-created"])
            #expect(result.status != 0, "\(address)")
            #expect(result.output.contains("--metrics-address"), "\(address): \(result.output)")
        }
    }

    @Test(
        "lockouts, rate-limit refusals, replays, refused payments and both factors' verdicts are counted; unknown paths add one series, not one each",
        arguments: TestEngines.all)
    func refusalsAndReplays(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: RateLimitTests.limited(["pin-account=100/600"])) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            #expect(try await server.topUp(payer, pin: payer.pin, idempotencyKey: "m-1").status == 200)
            #expect(try await server.topUp(payer, pin: payer.pin, idempotencyKey: "m-1").status == 200)
            for _ in 0..<5 { _ = try await server.topUp(payer, pin: "9999") }
            let locked = try await server.topUp(payer, pin: payer.pin)
            #expect(locked.status == 423, "\(locked.text)")
            for index in 0..<200 { _ = try await server.client.get("/no/such/path/\(index)") }
            let metrics = try Self.scrape(server)
            #expect(metrics.total("countersign_idempotent_replays_total", ["route": "/user/topup"]) == 1)
            #expect(metrics.total("countersign_payments_total", ["kind": "topup", "outcome": "completed"]) == 1)
            #expect(metrics.total("countersign_payments_total", ["outcome": "authorization_failed"]) >= 4)
            #expect(metrics.total("countersign_payments_total", ["outcome": "payment_locked"]) >= 1)
            #expect(metrics.total("countersign_authorizations_total", ["factor": "pin", "outcome": "accepted"]) == 1)
            #expect(
                metrics.total("countersign_authorizations_total", ["factor": "pin", "outcome": "authorization_failed"])
                    >= 4)
            #expect(metrics.total("countersign_lockouts_total") >= 1, "\(metrics)")
            let routes = Set(metrics.labelSets("countersign_http_requests_total").compactMap { $0["route"] })
            // Hummingbird names every unknown path's route `NotFound`.
            #expect(routes.contains("NotFound") && !routes.contains { $0.hasPrefix("/no/") }, "\(routes)")
            #expect(metrics.total("countersign_http_requests_total", ["route": "NotFound", "status": "404"]) == 200)
            #expect(server.services.metrics.headline.lockouts >= 1)
        }
        try await LiveServer.run(engine, configure: RateLimitTests.limited(["signup-address=1/600"])) { server in
            _ = try await RateLimitTests.signup(server)
            #expect(try await RateLimitTests.signup(server).status == 429)
            let metrics = try Self.scrape(server)
            #expect(metrics.total("countersign_rate_limited_total", ["route": "/auth/signup"]) == 1, "\(metrics)")
            #expect(server.services.metrics.headline.rateLimited == 1)
        }
    }

    @Test(
        "an open transfer stream counts in the SSE gauge until the client goes; the workers' backlogs are recorded",
        arguments: TestEngines.all)
    func streamsAndBacklog(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup(name: "Bola")
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            let stream = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", token: payer.token)
            #expect(await !stream.wait { !$0.isEmpty }.isEmpty)
            #expect(try Self.scrape(server).total("countersign_sse_streams_open") == 1)
            stream.close()
            let deadline = ContinuousClock.now + .seconds(60)
            while try Self.scrape(server).total("countersign_sse_streams_open") != 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try Self.scrape(server).total("countersign_sse_streams_open") == 0)

            await server.services.pendingTopUpSweeper.sweep()
            let metrics = try Self.scrape(server)
            #expect(metrics.labelSets("countersign_worker_backlog").contains(["worker": "pending_top_ups"]))
            #expect(metrics.labelSets("countersign_worker_backlog").contains(["worker": "transfers"]), "\(metrics)")
        }
    }
}
