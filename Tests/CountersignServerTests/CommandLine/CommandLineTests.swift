import AsyncHTTPClient
import CountersignAPI
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The `countersign` executable as an operator runs it: `serve`, `wallet fund`, `webauthn check`.
@Suite("Command line", .serialized)
struct CommandLineTests {
    /// The built `countersign` binary, beside the test bundle in the build directory.
    static func executable() throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("countersign")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw TestFailure("countersign binary not found next to \(directory.path); run `swift build` first")
    }

    /// Runs the binary to completion and returns its exit status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, output: String
    ) {
        try await ChildProcess.run(
            try executable().path, arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    static var vectorsDirectory: URL {
        // Tests/Fixtures/webauthn, next to this test target (this file is in its CommandLine/ folder).
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/webauthn")
    }

    @Test("webauthn check passes the fixture vectors and fails on a wrong expectation")
    func webauthnCheck() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.vectorsDirectory.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        try #require(files.count >= 30, "vectors missing at \(Self.vectorsDirectory.path)")
        let result = try await Self.run(
            ["webauthn", "check"] + files.map { Self.vectorsDirectory.appendingPathComponent($0).path })
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("w3c/none-ES256"), "one line per vector, by name")
        #expect(!result.output.contains("FAIL"))

        // Flip one expectation: the check must notice and exit non-zero.
        let original = try String(
            contentsOf: Self.vectorsDirectory.appendingPathComponent("w3c-none-es256.json"), encoding: .utf8)
        let tampered = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tampered-\(UUID().uuidString).json")
        try original.replacingOccurrences(of: "\"expect\": \"valid\"", with: "\"expect\": \"invalid\"").write(
            to: tampered, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tampered) }
        let failing = try await Self.run(["webauthn", "check", tampered.path])
        #expect(failing.status != 0)
        #expect(failing.output.contains("FAIL"))
    }

    @Test("serve starts, wallet fund credits, SIGTERM stops it cleanly", arguments: TestEngines.all)
    func serveAndFund(engine: DatabaseEngine) async throws {
        if engine == .postgres {
            try await TestDatabase.withFreshPostgres { url in
                try await Self.serveAndFund(engine: engine, databaseURL: url)
            }
        } else {
            try await Self.serveAndFund(engine: engine, databaseURL: nil)
        }
    }

    static func serveAndFund(engine: DatabaseEngine, databaseURL: String?) async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-cli-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        var store = ["--data-dir", dataDirectory]
        var environment = ["DATABASE_URL": ""]
        if let url = databaseURL {
            store += ["--database-url", url]
            environment = [:]
        }
        try await withHTTPClient { http in
            let server = try await ServeProcess(http: http, environment: environment) { port in
                ["serve", "--port", String(port), "--log-level", "warning"] + store
            }
            let client = server.client
            let health = try await client.get("/health").text
            #expect(health.contains(engine.rawValue))
            #expect(
                health.contains(#""paymentsTestMode":true"#),
                "the simulator is no real provider, and /health says so: \(health)")
            #expect(server.output.contains("TEST MODE"), "and so does the start-up log: \(server.output)")

            let phone = "0805" + String(Int.random(in: 1_000_000..<9_999_999))
            let session = try await client.post(
                "/auth/signup", try await client.signupBody(phone: phone, name: "Operator test", pin: "4827")
            ).decode(SessionResponse.self)
            let funded = try await run(
                ["wallet", "fund", "--phone", phone, "--amount", "2500"] + store, environment: environment)
            #expect(funded.status == 0, "\(funded.output)")
            #expect(funded.output.contains("with ₦2,500.00") && funded.output.contains("balance now ₦2,500.00"))
            let wallet = try await client.get("/user/wallet", token: session.sessionToken).decode(WalletResponse.self)
            #expect(wallet == WalletResponse.naira(250_000, cashback: 0))

            let refused = try await run(
                ["wallet", "fund", "--phone", phone, "--amount=-5"] + store, environment: environment)
            #expect(refused.status != 0)
            #expect(
                refused.output.contains("not more than zero"), "\(refused.output)")
            let tooMuch = try await run(
                ["wallet", "fund", "--phone", phone, "--amount", "1000000.01"] + store, environment: environment)
            #expect(tooMuch.status != 0 && tooMuch.output.contains("₦1,000,000.00"), "\(tooMuch.output)")

            // Secrets were generated into the data directory, readable by the owner only.
            let attributes = try FileManager.default.attributesOfItem(atPath: dataDirectory + "/secrets/token-hmac")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(await server.stop() == 0, "SIGTERM shuts down gracefully: \(server.output)")
        }
    }

    @Test("operator commands open an existing store only, name where they looked, and the server's store")
    func existingStoreOnly() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-stores-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let environment = ["DATABASE_URL": "", "COUNTERSIGN_RUNTIME_DIR": root + "/runtime"]
        let nowhere = root + "/nowhere"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("not.a.blob".utf8).write(to: URL(fileURLWithPath: root + "/blob.jwt"))
        let commands = [
            ["wallet", "fund", "--phone", "08031234567", "--amount", "5"],
            ["operator", "grant", "--phone", "08031234567"],
            ["audit"], ["backup", "--to", root + "/copy.sqlite"], ["mds", "import", root + "/blob.jwt"],
        ]
        for command in commands {
            let result = try await Self.run(command + ["--data-dir", nowhere], environment: environment)
            #expect(
                result.status != 0 && result.output.contains("no Countersign store at \(nowhere)/countersign.sqlite")
                    && result.output.contains("--data-dir DIR") && result.output.contains("DATABASE_URL"),
                "\(command): \(result.output)")
            #expect(!FileManager.default.fileExists(atPath: nowhere), "\(command) created nothing")
        }
        #expect(try await Self.run(["audit", "--data-dir", nowhere], environment: environment).status == 2)

        try await withHTTPClient { http in
            let server = try await ServeProcess(http: http, environment: environment) { port in
                ["serve", "--port", String(port), "--log-level", "warning", "--data-dir", root + "/server"]
            }
            defer { server.stopBlocking() }
            let missing = try await Self.run(
                ["wallet", "fund", "--phone", "08031234567", "--amount", "5", "--data-dir", nowhere],
                environment: environment)
            #expect(
                missing.status != 0 && missing.output.contains("The server running on this machine")
                    && missing.output.contains("pass --data-dir \(root)/server"), "\(missing.output)")
            #expect(!FileManager.default.fileExists(atPath: nowhere))

            // Another store that exists (migrate creates one): the command runs, and says whose store it is not.
            #expect(
                try await Self.run(["migrate", "--data-dir", root + "/other"], environment: environment).status == 0)
            let other = try await Self.run(["audit", "--data-dir", root + "/other"], environment: environment)
            #expect(
                other.status == 0 && other.output.contains("but the server running on this machine")
                    && other.output.contains("--data-dir \(root)/server"), "\(other.output)")
            let its = try await Self.run(["audit", "--data-dir", root + "/server"], environment: environment)
            #expect(its.status == 0 && !its.output.contains("note:"), "\(its.output)")
            #expect(await server.stop() == 0)
        }

        if TestEngines.postgresURL != nil {
            try await TestDatabase.withFreshPostgres { url in
                let empty = try await Self.run(
                    [
                        "wallet", "fund", "--phone", "08031234567", "--amount", "5", "--database-url", url,
                        "--data-dir",
                        root + "/pg",
                    ],
                    environment: environment)
                #expect(
                    empty.status != 0 && empty.output.contains("holds no Countersign store")
                        && !empty.output.contains("secret"), "\(empty.output)")
                #expect(!FileManager.default.fileExists(atPath: root + "/pg"), "no secrets were made for it either")
                // Set up, it is used; a data directory that is not there is still not created.
                let migrated = try await Self.run(
                    ["migrate", "--database-url", url, "--data-dir", root + "/pg-server"], environment: environment)
                #expect(migrated.status == 0, "\(migrated.output)")
                let granted = try await Self.run(
                    ["operator", "grant", "--phone", "08031234567", "--database-url", url, "--data-dir", root + "/pg"],
                    environment: environment)
                #expect(
                    granted.output.contains("unknown_user") || granted.output.contains("No user"), "\(granted.output)")
                #expect(!FileManager.default.fileExists(atPath: root + "/pg"), "\(granted.output)")
            }
        }
    }

    @Test(
        "--require-live-sms refuses to start on the SMS simulator; a half-set Twilio configuration names what is missing"
    )
    func requireLiveSMS() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-live-sms-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let simulator = try await Self.run(
            ["serve", "--data-dir", dataDirectory, "--require-live-sms"],
            environment: ["DATABASE_URL": "", "TWILIO_ACCOUNT_SID": ""])
        #expect(
            simulator.status != 0 && simulator.output.contains("--require-live-sms")
                && simulator.output.contains("SMS simulator"), "\(simulator.output)")
        let partial = try await Self.run(
            ["serve", "--data-dir", dataDirectory],
            environment: ["DATABASE_URL": "", "TWILIO_ACCOUNT_SID": "AC" + String(repeating: "0", count: 32)])
        #expect(partial.status != 0 && partial.output.contains("TWILIO_API_KEY_SID"), "\(partial.output)")
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/countersign.sqlite"), "nothing was created")
    }

    @Test("--require-live-payments refuses to start on the simulator or a Stripe test key, before it opens a store")
    func requireLivePayments() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-live-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let simulator = try await Self.run(
            ["serve", "--data-dir", dataDirectory, "--require-live-payments"],
            environment: ["DATABASE_URL": "", "STRIPE_SECRET_KEY": ""])
        #expect(simulator.status != 0 && simulator.output.contains("simulator"), "\(simulator.output)")
        let testKey = try await Self.run(
            ["serve", "--data-dir", dataDirectory],
            environment: [
                "DATABASE_URL": "", "STRIPE_SECRET_KEY": "sk_test_0123456789abcdefghijklmn",
                "COUNTERSIGN_REQUIRE_LIVE_PAYMENTS": "1",
            ])
        #expect(testKey.status != 0 && testKey.output.contains("test mode"), "\(testKey.output)")
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/countersign.sqlite"), "nothing was created")
    }

    @Test("serve refuses flags out of range, naming the flag, before it opens a store")
    func bidLifetimeFlags() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-flags-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let flags = [
            ("--bid-hours", "0"), ("--accepted-bid-hours", "721"), ("--buy-now-minutes", "4"), ("--session-days", "0"),
            ("--session-idle-minutes", "1"), ("--phone-region", "XX"), ("--return-origin", "javascript:"),
            ("--return-origin", "shop.example"), ("--synced-passkeys", "sometimes"),
            ("--authenticator-allow", "yubikey"), ("--authenticator-deny", "cb69481e8ff7403993ec0a2729a154a"),
        ]
        for (flag, value) in flags {
            let result = try await Self.run(
                ["serve", "--data-dir", dataDirectory, flag, value], environment: ["DATABASE_URL": ""])
            #expect(result.status != 0 && result.output.contains(flag), "\(flag) \(value): \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/countersign.sqlite"), "nothing was created")
    }

    @Test("in CI, PostgreSQL is not optional")
    func postgresPresentInCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(
                TestEngines.postgresURL != nil, "CI must run the PostgreSQL half of the suite: DATABASE_URL is not set")
        }
    }
}
