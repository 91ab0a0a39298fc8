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
        "countersign-bench flows --metrics-address: scrapes during the run show requests, payments, authorizations, challenges, tokens and database timings moving"
    )
    func underBench() async throws {
        let bench = try CommandLineTests.executable().deletingLastPathComponent().appendingPathComponent(
            "countersign-bench")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-bench-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let metricsPort = try LoopbackPort.free()
        let process = try ChildProcess(
            bench.path,
            [
                "flows", "--clients", "2", "--warmup", "0.5", "--seconds", "5", "--max-flows", "1000", "--json",
                directory.appendingPathComponent("flows.json").path, "--metrics-address", "127.0.0.1:\(metricsPort)",
            ], environment: ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" },
            outputPath: directory.appendingPathComponent("bench.log").path)
        defer { process.terminate() }
        let scrapes = try await withHTTPClient { http in
            var scrapes: [Exposition] = []
            while process.isRunning {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(metricsPort)/metrics")
                request.method = .GET
                if let response = try? await http.execute(request, timeout: .seconds(10)), response.status == .ok {
                    #expect(
                        response.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
                    let body = try await response.body.collect(upTo: 8 << 20)
                    scrapes.append(try Exposition(String(buffer: body)))
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            return scrapes
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("bench.log"), encoding: .utf8)) ?? ""
        #expect(process.waitUntilExit() == 0, "\(log)")
        let (first, last) = (try #require(scrapes.first, "no scrape answered: \(log)"), try #require(scrapes.last))
        // The scrapes start before the first flow and go on through five seconds of them; on a loaded
        // machine a scrape can take a while, so only two are required.
        try #require(scrapes.count >= 2, "\(scrapes.count) scrapes:\n\(log)")
        let moved: [(String, [String: String])] = [
            ("countersign_http_requests_total", ["route": "/user/topup", "status": "200"]),
            ("countersign_http_request_duration_seconds_count", ["route": "/biometric/auth/verify"]),
            ("countersign_payments_total", ["kind": "topup", "outcome": "completed"]),
            ("countersign_authorizations_total", ["factor": "biometric", "outcome": "accepted"]),
            ("countersign_challenges_issued_total", ["purpose": "payment"]),
            ("countersign_tokens_issued_total", [:]),
            ("countersign_db_duration_seconds_count", ["operation": "transaction"]),
            ("countersign_db_wait_seconds_count", ["operation": "read"]),
        ]
        for (name, labels) in moved {
            #expect(last.total(name, labels) > first.total(name, labels), "\(name) \(labels) did not move:\n\(last)")
        }
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
    func badAddress() throws {
        for address in ["9464", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:70000", ":9464", "127.0.0.1:8080"] {
            let result = try CommandLineTests.run(
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
            let deadline = ContinuousClock.now + .seconds(10)
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
