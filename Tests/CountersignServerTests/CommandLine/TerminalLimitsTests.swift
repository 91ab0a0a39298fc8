import AsyncHTTPClient
import Foundation
import Testing

/// The terminal app and `serve`'s flags for money within limits: `countersign limits`, `limits set`,
/// and an airtime purchase beyond the PIN allowance, which asks for no PIN.
@Suite("Terminal limits", .serialized)
struct TerminalLimitsTests {
    @Test("serve refuses a PIN allowance or a tier it cannot read, naming the flag")
    func badFlags() async throws {
        for (flag, value) in [
            ("--pin-max-amount", "30XYZ"), ("--pin-cumulative-amount", "lots"), ("--limit-tier", "gold:weekly=5EUR"),
        ] {
            let result = try await CommandLineTests.run(["serve", flag, value, "--port", "0"])
            #expect(result.status != 0 && result.output.contains(flag), "\(flag) \(value): \(result.output)")
        }
    }

    @Test(
        "limits shows and lowers, a raise signs with the terminal's key, airtime beyond the PIN allowance asks no PIN")
    func limitsCommands() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-limits-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withHTTPClient { http in
            let server = try await ServeProcess(http: http, environment: ["DATABASE_URL": ""]) { port in
                [
                    "serve", "--port", String(port), "--log-level", "warning", "--data-dir", root + "/server",
                    "--pin-max-amount", "10NGN", "--pin-cumulative-amount", "20NGN",
                ]
            }
            defer { server.stopBlocking() }
            let ada = "0806" + String(Int.random(in: 1_000_000..<9_999_999))
            let client = [
                "COUNTERSIGN_SERVER": "http://127.0.0.1:\(server.port)", "COUNTERSIGN_PROFILE": root + "/ada",
                "DATABASE_URL": "",
            ]
            let run = { (arguments: [String]) in try await CommandLineTests.run(arguments, environment: client) }
            #expect(
                try await run(["signup", "--phone", ada, "--name", "Ada", "--pin", "4827", "--code-from-simulator"])
                    .status
                    == 0)
            let register = try await run([
                "device", "register", "--pin", "4827", "--local-pin", "3816", "--code-from-simulator",
            ])
            #expect(register.status == 0, "\(register.output)")
            #expect(
                try await run(["wallet", "fund", "--phone", ada, "--amount", "5000", "--data-dir", root + "/server"])
                    .status
                    == 0)

            let shown = try await run(["limits"])
            #expect(
                shown.status == 0 && shown.output.contains("daily") && shown.output.contains("₦5,000,000.00"),
                "\(shown.output)")
            let lowered = try await run(["limits", "set", "--kind", "daily", "--amount", "1000"])
            #expect(lowered.status == 0 && lowered.output.contains("₦1,000.00"), "\(lowered.output)")
            let raised = try await run(["limits", "set", "--kind", "daily", "--amount", "2000", "--local-pin", "3816"])
            #expect(raised.status == 0 && raised.output.contains("raise to ₦2,000.00"), "\(raised.output)")

            // No biometric in this terminal, and ₦50 is over the PIN's ₦10: the passkey is needed.
            let airtime = try await run([
                "airtime", "--to", "08031234567", "--amount", "50", "--network", "mtn", "--pin", "4827",
            ])
            #expect(airtime.status == 1 && airtime.output.contains("needs your passkey"), "\(airtime.output)")
            #expect(!airtime.output.contains("using the account PIN"), "\(airtime.output)")
            let small = try await run([
                "airtime", "--to", "08031234567", "--amount", "5", "--network", "mtn", "--pin", "4827",
            ])
            #expect(small.status == 0 && small.output.contains("account PIN"), "\(small.output)")
        }
    }
}
