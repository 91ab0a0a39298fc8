import CountersignServer
import Foundation
import Testing

/// `serve`'s settings from each source (flag, environment variable, `--config` file) reaching the
/// configuration, their precedence, and what is refused, naming the setting and the source.
@Suite("serve's settings")
struct ServeSettingsTests {
    static func resolve(_ arguments: [String] = [], _ environment: [String: String] = [:]) throws -> ServeConfiguration
    {
        try ServeSettings.resolve(arguments: arguments, environment: environment)
    }

    /// A configuration file holding `text`, removed after `body`.
    static func withFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-config-\(UUID().uuidString).json"
        ).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// The message of the refusal, or nil if nothing was refused.
    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServeSettings.resolve(arguments: arguments, environment: environment)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("nothing given: the configuration's defaults")
    func defaults() throws {
        let configuration = try Self.resolve()
        let defaults = ServerConfiguration()
        #expect(configuration.server.port == defaults.port)
        #expect(configuration.server.quoteSeconds == defaults.quoteSeconds)
        #expect(configuration.server.sessionSeconds == defaults.sessionSeconds)
        #expect(configuration.server.marketplaceTimeouts == defaults.marketplaceTimeouts)
        #expect(configuration.server.web == .bundled)
        #expect(configuration.server.stripe == nil)
        #expect(configuration.logLevel == .info)
    }

    @Test("a flag reaches the configuration, scaled by its unit")
    func flag() throws {
        let configuration = try Self.resolve([
            "--port", "9001", "--session-days=2", "--bid-hours", "3", "--origin", "https://a.example", "--origin",
            "https://b.example", "--no-rate-limits", "--log-level", "warning",
        ])
        #expect(configuration.server.port == 9001)
        #expect(configuration.server.sessionSeconds == 2 * 86_400)
        #expect(configuration.server.marketplaceTimeouts.bidSeconds == 3 * 3_600)
        #expect(configuration.server.origins == ["https://a.example", "https://b.example"])
        #expect(!configuration.server.rateLimits.enabled)
        #expect(configuration.logLevel == .warning)
    }

    @Test("an environment variable reaches the configuration; a list is comma-separated, an on/off is 1")
    func environment() throws {
        let configuration = try Self.resolve(
            [],
            [
                "PORT": "9002", "COUNTERSIGN_QUOTE_SECONDS": "60",
                "COUNTERSIGN_CORS_ORIGINS": "https://a.example, https://b.example",
                "COUNTERSIGN_NO_WEB": "1", "COUNTERSIGN_HOST": "", "COUNTERSIGN_BUY_NOW_MINUTES": "10",
            ])
        #expect(configuration.server.port == 9002)
        #expect(configuration.server.quoteSeconds == 60)
        #expect(configuration.server.corsOrigins == ["https://a.example", "https://b.example"])
        #expect(configuration.server.web == .off)
        #expect(configuration.server.host == ServerConfiguration().host, "an empty variable is unset")
        #expect(configuration.server.marketplaceTimeouts.buyNowSeconds == 600)
    }

    @Test("a configuration file's key reaches the configuration")
    func file() async throws {
        let configuration = try await Self.withFile(
            #"{"port": 9003, "rp-id": "pay.example", "origin": ["https://pay.example"], "no-pin-allowance": true, "allow-cross-origin": false, "limit-raise-delay": 2}"#
        ) { path in try Self.resolve(["--config", path]) }
        #expect(configuration.server.port == 9003)
        #expect(configuration.server.rpId == "pay.example")
        #expect(configuration.server.origins == ["https://pay.example"])
        #expect(configuration.server.pinAllowance == .unlimited)
        #expect(!configuration.server.allowCrossOrigin)
        #expect(configuration.server.limitTiers.raiseDelaySeconds == 7_200)
        let fromEnvironment = try await Self.withFile(#"{"port": 9004}"#) { path in
            try Self.resolve([], ["COUNTERSIGN_CONFIG": path])
        }
        #expect(fromEnvironment.server.port == 9004)
    }

    @Test("a flag wins over the environment, which wins over the file, which wins over the default")
    func precedence() async throws {
        try await Self.withFile(
            #"{"quote-seconds": 100, "port": 9100, "host": "10.0.0.1", "origin": ["https://file.example"]}"#
        ) { path in
            let environment = [
                "COUNTERSIGN_QUOTE_SECONDS": "200", "PORT": "9200", "COUNTERSIGN_ORIGINS": "https://env.example",
            ]
            let configuration = try Self.resolve(
                ["--config", path, "--quote-seconds", "300", "--origin", "https://flag.example"], environment)
            #expect(configuration.server.quoteSeconds == 300, "the flag")
            #expect(configuration.server.origins == ["https://flag.example"], "the flag's list, whole")
            #expect(configuration.server.port == 9200, "the environment")
            #expect(configuration.server.host == "10.0.0.1", "the file")
            #expect(configuration.server.rpId == ServerConfiguration().rpId, "the default")
        }
    }

    @Test("a value out of range is refused, naming the setting, its source and the range")
    func outOfRange() async throws {
        let flag = Self.refusal(["--bid-hours", "0"])
        #expect(flag?.contains("--bid-hours must be between 1 and 2160 hours") == true, "\(flag ?? "accepted")")
        let variable = Self.refusal([], ["COUNTERSIGN_SESSION_DAYS": "366"])
        #expect(
            variable?.contains("COUNTERSIGN_SESSION_DAYS must be between 1 and 365 days") == true,
            "\(variable ?? "accepted")")
        let port = Self.refusal([], ["PORT": "http"])
        #expect(port?.contains("PORT must be a whole number") == true, "\(port ?? "accepted")")
        try await Self.withFile(#"{"buy-now-minutes": 4}"#) { path in
            let file = Self.refusal(["--config", path])
            #expect(
                file?.contains("\"buy-now-minutes\" in \(path) must be between 5 and 1440 minutes") == true,
                "\(file ?? "accepted")")
        }
    }

    @Test("values a setting does not take are refused, naming it and the source")
    func badValues() throws {
        let cases: [([String], [String: String], String)] = [
            (["--log-format", "xml"], [:], "--log-format must be one of auto, json, text"),
            ([], ["COUNTERSIGN_LOG_FORMAT": "xml"], "COUNTERSIGN_LOG_FORMAT must be one of"),
            ([], ["COUNTERSIGN_REQUIRE_LIVE_SMS": "yes"], "COUNTERSIGN_REQUIRE_LIVE_SMS must be 1 or 0"),
            (
                [], ["COUNTERSIGN_PAYEE_ORIGIN": "http://shop.example"],
                "COUNTERSIGN_PAYEE_ORIGIN must be an https origin"
            ),
            (["--no-web", "--web-root", "/tmp"], [:], "--web-root contradicts --no-web"),
            (["--pin-max-amount", "200EUR"], [:], "--pin-max-amount for EUR is above its --pin-cumulative-amount"),
            (["--port"], [:], "--port needs a value"),
            (["--no-web=1"], [:], "--no-web takes no value"),
            (["--portt", "1"], [:], "unknown option --portt"),
            (["8080"], [:], "unexpected argument 8080"),
        ]
        for (arguments, environment, message) in cases {
            let refusal = Self.refusal(arguments, environment)
            #expect(refusal?.contains(message) == true, "\(arguments) \(environment): \(refusal ?? "accepted")")
        }
    }

    @Test("a file with an unknown key, a secret, a wrong type, bad JSON or over 1 MB is refused")
    func badFiles() async throws {
        let cases = [
            (#"{"port": 9000, "prot": 9001}"#, #""prot" in"#),
            (#"{"token-secret": "0123456789abcdef0123456789abcdef"}"#, #""token-secret" in"#),
            (#"{"port": "many"}"#, #""port" in"#),
            (#"{"origin": [1, 2]}"#, #""origin" in"#),
            (#"["port", 9000]"#, "not a JSON object of settings"),
            (#"{"port": 9000"#, "not a JSON object of settings"),
            (#"{"host": ""# + String(repeating: "a", count: ServeSettings.maxFileBytes) + #""}"#, "larger than"),
        ]
        for (text, message) in cases {
            try await Self.withFile(text) { path in
                let refusal = Self.refusal(["--config", path])
                #expect(refusal?.contains(message) == true, "\(text.prefix(60)): \(refusal ?? "accepted")")
            }
        }
        let missing = Self.refusal(["--config", "/nonexistent/countersign.json"])
        #expect(missing?.contains("cannot read") == true, "\(missing ?? "accepted")")
    }

    @Test("serve refuses an unknown key in its --config file at start, before it creates a store")
    func refusedAtStart() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-config-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        try await Self.withFile(#"{"bid-hour": 2}"#) { path in
            let result = try await CommandLineTests.run(
                ["serve", "--data-dir", dataDirectory, "--config", path], environment: ["DATABASE_URL": ""])
            #expect(result.status != 0 && result.output.contains("\"bid-hour\" in \(path)"), "\(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/countersign.sqlite"), "nothing was created")
    }
}
