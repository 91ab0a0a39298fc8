import CountersignHarness
import CountersignStore
import Foundation
import Logging
import Testing

/// The flows benchmark still runs end to end: it starts the real server, enrols and funds users,
/// and its load clients (the SDK over the bench's loopback socket transport) complete flows without errors.
/// A smoke test, not a measurement: a few flows, a debug build, and no figure is checked.
@Suite("Benchmark smoke test")
struct BenchSmokeTests {
    /// The bench built next to the server, and a fresh directory for its results.
    static func benchAndDirectory() throws -> (bench: URL, directory: URL) {
        let bench = try CommandLineTests.executable().deletingLastPathComponent().appendingPathComponent(
            "countersign-bench")
        try #require(
            FileManager.default.isExecutableFile(atPath: bench.path), "countersign-bench not built next to countersign")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-bench-smoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (bench, directory)
    }

    /// The comparison a two-round `--baseline` or `--prefill` run wrote to `json`, checked: round 1 ran
    /// the baseline first, round 2 the current side first, and each side completed flows without errors.
    static func alternatedComparison(json: URL, output: String) throws -> [String: Any] {
        let comparison = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any], "\(output)")
        let runs = try #require(comparison["runs"] as? [[String: Any]])
        #expect(
            runs.map { "\($0["round"] ?? "")\($0["server"] ?? "")" } == [
                "1baseline", "1current", "2current", "2baseline",
            ])
        for side in ["baseline", "current"] {
            let summary = try #require(comparison[side] as? [String: Any], "\(output)")
            #expect((summary["flowsPerSecond"] as? [Double])?.count == 2)
            #expect((summary["medianFlowsPerSecond"] as? Double ?? 0) > 0, "\(output)")
            #expect(summary["errors"] as? Int == 0, "\(output)")
        }
        return comparison
    }

    @Test(
        "countersign-bench flows completes flows on SQLite with no errors and writes its JSON; its top-ups carry the SDK's Idempotency-Key unless --unkeyed-top-ups; --rate-limits counts without refusing",
        arguments: [false, true])
    func flows(unkeyed: Bool) async throws {
        let (bench, directory) = try Self.benchAndDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("flows.json")

        // The bench strips DATABASE_URL from the server's environment itself; SQLite here.
        let (status, output) = try await ChildProcess.run(
            bench.path,
            [
                "flows", "--clients", "2", "--warmup", "0.5", "--seconds", "1.5", "--max-flows", "400", "--json",
                json.path, "--keep-data",
            ] + (unkeyed ? ["--unkeyed-top-ups"] : ["--rate-limits"]),
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        )
        #expect(status == 0, "\(output)")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any], "\(output)")
        #expect(report["engine"] as? String == "sqlite")
        let flows = try #require(report["flows"] as? Int)
        #expect(flows > 0, "\(output)")
        #expect((report["errors"] as? [String: Int])?.isEmpty == true, "\(output)")
        #expect(report["warmupErrors"] as? Int == 0, "\(output)")
        // Every completed flow has one latency per call.
        let latencies = try #require(report["latencies"] as? [[String: Any]])
        #expect(latencies.count == 4)
        #expect(latencies.allSatisfy { $0["count"] as? Int == flows }, "\(latencies)")
        // The store's work per flow, from the server's own counts: a flow reads and writes.
        let work = try #require(report["database"] as? [String: Any], "\(output)")
        #expect((work["statementsPerFlow"] as? Double ?? 0) > 5, "\(work)")
        #expect((work["transactionsPerFlow"] as? Double ?? 0) >= 2, "\(work)")
        #expect(output.contains("statements / transactions / reads per flow"), "\(output)")

        // The kept data: one stored key per top-up, or none.
        let line = try #require(output.split(separator: "\n").first { $0.contains("data kept in ") }, "\(output)")
        let kept = String(line[try #require(line.range(of: "data kept in ")).upperBound...])
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let database = try await SQLiteDatabase.open(
            path: kept + "/countersign.sqlite", readerCount: 1, logger: Logger(label: "bench-smoke"))
        let counts = try await database.read { sql in
            (
                try await sql.first("SELECT COUNT(*) AS n FROM idempotency_keys")?.int("n"),
                try await sql.first("SELECT COUNT(*) AS n FROM wallet_transactions WHERE type = 'topup'")?.int("n")
            )
        }
        try await database.close()
        let topUps = try #require(counts.1)
        #expect(topUps >= flows)
        #expect(counts.0 == (unkeyed ? 0 : topUps))
    }

    @Test(
        "countersign-bench flows --baseline alternates two servers round by round and compares their medians; --calls 2 --baseline-calls 3 compares the two flows"
    )
    func baseline() async throws {
        let (bench, directory) = try Self.benchAndDirectory()
        let server = try CommandLineTests.executable()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("comparison.json")

        // The same build on both sides: a smoke test of the alternation and the report, not a figure.
        // The baseline runs the seed's three calls, the current side two.
        let (status, output) = try await ChildProcess.run(
            bench.path,
            [
                "flows", "--clients", "2", "--warmup", "0.2", "--seconds", "0.8", "--max-flows", "200", "--baseline",
                server.path, "--server", server.path, "--rounds", "2", "--json", json.path, "--calls", "2",
                "--baseline-calls", "3",
            ],
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        )
        #expect(status == 0, "\(output)")
        let comparison = try Self.alternatedComparison(json: json, output: output)
        let runs = try #require(comparison["runs"] as? [[String: Any]])
        for (side, calls) in [("baseline", 3), ("current", 2)] {
            let summary = try #require(comparison[side] as? [String: Any], "\(output)")
            #expect(summary["callsPerFlow"] as? Int == calls)
        }
        #expect((comparison["flowsPerSecondRatio"] as? Double ?? 0) > 0)
        // A two-call flow has no verify to time.
        for run in runs {
            let report = try #require(run["report"] as? [String: Any])
            let names = (report["latencies"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(
                names.contains("POST /biometric/auth/verify") == (run["server"] as? String == "baseline"), "\(names)")
        }
        #expect(output.contains("median flows/s"), "\(output)")

        // --rounds or --baseline-calls alone, or a flow of four calls, are refused before anything starts.
        for arguments in [["--rounds", "2"], ["--baseline-calls", "3"], ["--calls", "4"]] {
            let (refused, _) = try await ChildProcess.run(bench.path, ["flows"] + arguments, environment: [:])
            #expect(refused != 0)
        }
    }

    @Test("countersign-bench streams holds a stream per transfer and each declined transfer's final event arrives")
    func streams() async throws {
        let (bench, directory) = try Self.benchAndDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("streams.json")

        let (status, output) = try await ChildProcess.run(
            bench.path,
            [
                "streams", "--streams", "50", "--finish", "10", "--payers", "2", "--idle", "0.5", "--timeout", "120",
                "--json", json.path,
            ],
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        )
        #expect(status == 0, "\(output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any], "\(output)")
        #expect(report["engine"] as? String == "sqlite")
        #expect(report["streams"] as? Int == 50, "\(output)")
        #expect(report["streamsReady"] as? Int == 50, "\(output)")
        #expect(report["finished"] as? Int == 10, "\(output)")
        #expect(report["arrived"] as? Int == 10, "\(output)")
        #expect(report["disorders"] as? Int == 0, "\(output)")
        #expect((report["finishErrors"] as? [String: Int])?.isEmpty == true, "\(output)")
        #expect((report["serverResidentMB"] as? Double ?? 0) > 0, "\(output)")
        let fromSend = try #require(report["fromSend"] as? [String: Any])
        #expect(fromSend["count"] as? Int == 10)
        #expect((fromSend["p50"] as? Double ?? -1) > 0, "\(output)")
    }

    @Test(
        "countersign-bench flows --prefill builds a store whose books pass the audit, alternates it with an empty one, and reuses it by name"
    )
    func prefill() async throws {
        let (bench, directory) = try Self.benchAndDirectory()
        let server = try CommandLineTests.executable()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("prefill.json")
        let store = directory.appendingPathComponent("prefilled").path
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        func flows(rounds: Int) async throws -> (Int32, String) {
            try await ChildProcess.run(
                bench.path,
                [
                    "flows", "--clients", "2", "--warmup", "0.2", "--seconds", "0.8", "--max-flows", "200",
                    "--prefill", "20:400", "--prefill-store", store, "--rounds", "\(rounds)", "--json", json.path,
                ],
                environment: environment)
        }

        let (status, output) = try await flows(rounds: 2)
        #expect(status == 0, "\(output)")
        #expect(output.contains("built the prefilled store (20 users, 400 postings)"), "\(output)")
        // The empty store is the baseline.
        _ = try Self.alternatedComparison(json: json, output: output)

        // The books are sound, the history's and the rounds' own together.
        let (audited, auditOutput) = try await ChildProcess.run(
            server.path, ["audit", "--data-dir", store], environment: environment)
        #expect(audited == 0, "\(auditOutput)")
        // 20 users with two postings each (their funding), then (400 - 40) / 4 = 90 top-ups of four.
        let database = try await SQLiteDatabase.open(
            path: store + "/countersign.sqlite", readerCount: 1, logger: Logger(label: "bench-smoke"))
        let counts = try await database.read { sql in
            var counts: [Int64] = []
            // By exact prefix: LIKE ignores case in SQLite and reads `_` as any character, so a random
            // challenge of the measured flows could pass for a prefilled one.
            for (table, column, prefix) in [
                ("users", "id", "usr_pf_"), ("postings", "id", "pst_pf_"), ("idempotency_keys", "claim_id", "clm_pf_"),
                ("challenges", "challenge", "pfc_"), ("sessions", "token_hash", "pfs_"),
            ] {
                let query =
                    "SELECT COUNT(*) AS n FROM \(table) WHERE substr(\(column), 1, \(prefix.count)) = '\(prefix)'"
                counts.append(try await sql.first(query)?.int("n") ?? -1)
            }
            return counts
        }
        try await database.close()
        #expect(counts == [20, 400, 90, 90, 20])

        // Named, it is kept: the next run measures in it without building it again.
        let (again, againOutput) = try await flows(rounds: 1)
        #expect(again == 0, "\(againOutput)")
        #expect(againOutput.contains("reusing the prefilled store"), "\(againOutput)")
    }
}
