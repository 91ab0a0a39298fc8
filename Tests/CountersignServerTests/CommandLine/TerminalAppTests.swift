import AsyncHTTPClient
import Foundation
import Testing

/// The terminal app as a user runs it: the `countersign` binary's client commands against a
/// `countersign serve` process, and the all-in-one `countersign demo`.
@Suite("Terminal app", .serialized)
struct TerminalAppTests {
    @Test("countersign demo runs the eight payments and every outcome is the expected one")
    func demo() async throws {
        let result = try await CommandLineTests.run(["demo"])
        #expect(result.status == 0, "\(result.output)")
        for scenario in [
            "(a) transfer: fees accepted", "(b) transfer: fees declined", "(c) transfer: biometric denied",
            "(d) airtime: biometric", "(e) airtime: biometric unavailable, account PIN",
            "(f) checkout: card, 3-D Secure", "(g) checkout: iDEAL, pickup",
            "(h) checkout: buy-now abandoned, withdrawn",
        ] {
            #expect(result.output.contains("PASS  \(scenario)"), "\(scenario) missing or failed")
        }
        #expect(result.output.contains("8 of 8 outcomes as expected"))
        #expect(
            result.output.contains("Total                        €110.05"),
            "the payment screen shows the server's totals")
        #expect(!result.output.contains("FAIL "))
        #expect(result.output.contains("Total fees  ₦15.00"), "the details screen shows the fee breakdown")
    }

    @Test(
        "signup, device register, wallet fund, send --yes, dashboard, send --no, airtime, logout, login against countersign serve"
    )
    func clientCommandsAgainstServe() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-terminal-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withHTTPClient { http in try await clientCommands(root: root, http: http) }
    }

    private func clientCommands(root: String, http: HTTPClient) async throws {
        let server = try await ServeProcess(http: http, environment: ["DATABASE_URL": ""]) { port in
            ["serve", "--port", String(port), "--log-level", "warning", "--data-dir", root + "/server"]
        }
        defer { server.stopBlocking() }
        let port = server.port

        let ada = "0806" + String(Int.random(in: 1_000_000..<9_999_999))
        let bola = "0807" + String(Int.random(in: 1_000_000..<9_999_999))
        let adaProfile = root + "/ada"
        let client = [
            "COUNTERSIGN_SERVER": "http://127.0.0.1:\(port)", "COUNTERSIGN_PROFILE": adaProfile, "DATABASE_URL": "",
        ]
        let run = { (arguments: [String]) in try await CommandLineTests.run(arguments, environment: client) }

        let signup = try await run([
            "signup", "--phone", ada, "--name", "Ada", "--pin", "4827", "--code-from-simulator",
        ])
        #expect(signup.status == 0, "\(signup.output)")
        #expect(try permissions(adaProfile) == 0o700)
        #expect(try permissions(adaProfile + "/session.json") == 0o600)
        let payee = try await run([
            "signup", "--phone", bola, "--name", "Bola", "--pin", "6193", "--code-from-simulator", "--profile",
            root + "/bola",
        ])
        #expect(payee.status == 0, "\(payee.output)")

        let samePIN = try await run(["device", "register", "--pin", "4827", "--local-pin", "4827"])
        #expect(
            samePIN.status == 1 && samePIN.output.contains("differs from your account PIN")
                && !FileManager.default.fileExists(atPath: adaProfile + "/device-key.json"),
            "the two PINs are kept apart, and nothing is sealed: \(samePIN.output)")
        let register = try await run([
            "device", "register", "--pin", "4827", "--local-pin", "3816", "--code-from-simulator",
        ])
        #expect(register.status == 0, "\(register.output)")
        #expect(register.output.contains("origin http://localhost:\(port)"))
        #expect(try permissions(adaProfile + "/device-key.json") == 0o600)
        let funded = try await run([
            "wallet", "fund", "--phone", ada, "--amount", "5000", "--data-dir", root + "/server",
        ])
        #expect(funded.status == 0 && funded.output.contains("balance now ₦5,000.00"), "\(funded.output)")

        let unanswered = try await run(["send", "--to", bola, "--amount", "1000", "--local-pin", "3816"])
        #expect(unanswered.status != 0)
        #expect(unanswered.output.contains("pass --yes or --no"), "\(unanswered.output)")

        let sent = try await run([
            "send", "--to", bola, "--amount", "1000", "--yes", "--biometric", "approve", "--local-pin", "3816",
        ])
        #expect(sent.status == 0, "\(sent.output)")
        for line in [
            "Payment details", "Transfer fee: ₦10.00", "Service fee (0.5%): ₦5.00", "Total fees  ₦15.00",
            "Total       ₦1,015.00", "Expires at", "Continue? [y/N] y", "Biometric (SIMULATED sensor): approved",
            "SUCCESS",
        ] {
            #expect(sent.output.contains(line), "send output lacks \(line): \(sent.output)")
        }
        #expect(!sent.output.contains("minor units") && !sent.output.contains("NGN "), "\(sent.output)")
        #expect(sent.output.firstMatch(of: /\d{4}-\d\d-\d\dT\d\d:/) == nil, "times are not raw ISO: \(sent.output)")
        #expect(sent.output.contains("to Bola (+"), "the receipt names the payee: \(sent.output)")
        #expect(try signCount(adaProfile) == 1, "the sign counter is persisted after signing")

        // Amounts are typed as on the web: naira with at most two decimals, more than zero, not absurd.
        for (amount, complaint) in [
            ("--amount=1.234", "type at most 2 after the dot"), ("--amount=0", "not more than zero"),
            ("--amount=-5", "not more than zero"), ("--amount=99999999999999999999", "more than the most"),
            ("--amount=1,5", "with a dot for the decimals"),
        ] {
            let refused = try await run(["send", "--to", bola, amount, "--yes", "--local-pin", "3816"])
            #expect(refused.status != 0 && refused.output.contains(complaint), "\(amount): \(refused.output)")
            #expect(!refused.output.contains("Payment details"), "refused before anything was sent")
        }
        let tooLittleAirtime = try await run(["airtime", "--to", bola, "--amount", "0.50", "--network", "mtn"])
        #expect(
            tooLittleAirtime.status != 0 && tooLittleAirtime.output.contains("less than the least allowed, ₦1.00"),
            "\(tooLittleAirtime.output)")
        let tooMuchAirtime = try await run(["airtime", "--to", bola, "--amount", "1000000", "--network", "mtn"])
        #expect(
            tooMuchAirtime.status != 0 && tooMuchAirtime.output.contains("₦500,000.00"), "\(tooMuchAirtime.output)")

        let dashboard = try await run(["dashboard"])
        #expect(dashboard.status == 0, "\(dashboard.output)")
        #expect(dashboard.output.contains("Balance   ₦3,985.00"), "\(dashboard.output)")
        #expect(dashboard.output.contains("transfer_out"), "\(dashboard.output)")
        #expect(dashboard.output.contains("→ Bola ("), "the payee by name: \(dashboard.output)")

        let declined = try await run(["send", "--to", bola, "--amount", "1000", "--no"])
        #expect(declined.status == 1, "\(declined.output)")
        #expect(declined.output.contains("DECLINED"), "\(declined.output)")
        #expect(
            try await run(["dashboard"]).output.contains("Balance   ₦3,985.00"), "a declined transfer moves nothing")

        let byBiometric = try await run([
            "airtime", "--to", bola, "--amount", "500", "--network", "mtn", "--biometric", "approve", "--local-pin",
            "3816",
        ])
        #expect(byBiometric.status == 0, "\(byBiometric.output)")
        #expect(
            byBiometric.output.contains("Top-up complete (biometric)")
                && byBiometric.output.contains("Buy ₦500.00 of MTN airtime for")
                && !byBiometric.output.contains("AIRTIME_MTN")
                && byBiometric.output.contains("reference      ")
                && byBiometric.output.contains("time           ")
                && byBiometric.output.contains("balance        ₦3,485.00"), "\(byBiometric.output)")
        // The seed's three calls, on request.
        let byToken = try await run([
            "airtime", "--to", bola, "--amount", "500", "--network", "mtn", "--biometric", "approve", "--local-pin",
            "3816", "--three-calls",
        ])
        #expect(
            byToken.status == 0 && byToken.output.contains("Top-up complete (biometric)")
                && byToken.output.contains("balance        ₦2,985.00"), "\(byToken.output)")
        let byPIN = try await run(["airtime", "--to", bola, "--amount", "500", "--network", "glo", "--pin", "4827"])
        #expect(byPIN.status == 0, "\(byPIN.output)")
        #expect(
            byPIN.output.contains("biometric unavailable") && byPIN.output.contains("Top-up complete (account PIN)"),
            "\(byPIN.output)")
        let noPIN = try await run(["airtime", "--to", bola, "--amount", "500", "--network", "glo"])
        #expect(noPIN.status == 1 && noPIN.output.contains("pass --pin"), "\(noPIN.output)")

        let session = try #require(FileManager.default.contents(atPath: adaProfile + "/session.json"))
        let token = try #require(
            (try JSONSerialization.jsonObject(with: session) as? [String: Any])?["sessionToken"] as? String)
        #expect(try await walletStatus(server, token: token) == 200)
        let logout = try await run(["logout"])
        #expect(logout.status == 0, "\(logout.output)")
        #expect(try await walletStatus(server, token: token) == 401, "logout revokes the session on the server")
        #expect(!FileManager.default.fileExists(atPath: adaProfile + "/session.json"))
        #expect(!FileManager.default.fileExists(atPath: adaProfile + "/unlocked"), "logout clears the soft-lock flag")
        let afterLogout = try await run(["dashboard"])
        #expect(afterLogout.status != 0)
        #expect(afterLogout.output.contains("not logged in"))
        let login = try await run(["login", "--phone", ada, "--pin", "4827", "--code-from-simulator"])
        #expect(
            login.status == 0 && !login.output.contains("A code was sent"), "a remembered terminal: \(login.output)")
        #expect(try await run(["dashboard"]).output.contains("Balance   ₦2,485.00"))

        // The account's security from the terminal: a PIN reset by code, then a change of number.
        let shown = try await run(["account", "show"])
        #expect(shown.output.contains("proven by a code"), "\(shown.output)")
        let newNumber = "0809" + String(Int.random(in: 1_000_000..<9_999_999))
        let moved = try await run(["account", "phone", "--to", newNumber, "--pin", "4827", "--code-from-simulator"])
        #expect(moved.status == 0 && moved.output.contains("no longer reaches it"), "\(moved.output)")
        // A PIN step-up is refused while a PIN reset by code alone is recent, so the move came first.
        let reset = try await run(["pin", "reset", "--phone", newNumber, "--new-pin", "7093", "--code-from-simulator"])
        #expect(reset.status == 0 && reset.output.contains("PIN payments and PIN step-ups wait"), "\(reset.output)")
        let waiting = try await run(["airtime", "--to", bola, "--amount", "5", "--network", "glo", "--pin", "7093"])
        #expect(waiting.status != 0 && waiting.output.contains("pin_cooling_off"), "\(waiting.output)")
        let activity = try await run(["account", "activity"])
        #expect(
            activity.output.contains("Number changed") && activity.output.contains("PIN reset"), "\(activity.output)")

        // Times in the user's zone (TZ), not the server's UTC.
        let inIndia = try await CommandLineTests.run(
            ["account", "devices"], environment: client.merging(["TZ": "Asia/Kolkata"]) { $1 })
        #expect(
            inIndia.status == 0 && (inIndia.output.contains("GMT+5:30") || inIndia.output.contains("IST"))
                && inIndia.output.firstMatch(of: /\d{4}-\d\d-\d\dT/) == nil, "\(inIndia.output)")

        #expect(await server.stop() == 0, "\(server.output)")
    }

    private func walletStatus(_ server: ServeProcess, token: String) async throws -> Int {
        try await server.client.get("/user/wallet", token: token).status
    }

    private func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func signCount(_ profile: String) throws -> Int? {
        let data = try #require(FileManager.default.contents(atPath: profile + "/device-key.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["signCount"] as? Int
    }
}
