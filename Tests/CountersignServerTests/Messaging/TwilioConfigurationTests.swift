import Testing

@testable import CountersignServer

/// Reading the Twilio configuration from the environment: nothing set leaves SMS to the simulator;
/// once `TWILIO_ACCOUNT_SID` is set, every missing variable is named and every shape checked, and
/// no message repeats a value.
@Suite("Twilio configuration")
struct TwilioConfigurationTests {
    static let complete = [
        "TWILIO_ACCOUNT_SID": FakeTwilio.accountSid, "TWILIO_API_KEY_SID": FakeTwilio.apiKeySid,
        "TWILIO_API_KEY_SECRET": FakeTwilio.apiKeySecret, "TWILIO_FROM": FakeTwilio.from,
    ]

    static func refusal(_ environment: [String: String]) -> String? {
        do throws(TwilioConfigurationError) {
            _ = try TwilioConfiguration.fromEnvironment(environment)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("no TWILIO_ variable: no Twilio; a complete set: Twilio at api.twilio.com")
    func selected() throws {
        #expect(try TwilioConfiguration.fromEnvironment([:]) == nil)
        #expect(try TwilioConfiguration.fromEnvironment(["TWILIO_ACCOUNT_SID": "", "PATH": "/bin"]) == nil)
        let twilio = try #require(try TwilioConfiguration.fromEnvironment(Self.complete))
        #expect(twilio.accountSid == FakeTwilio.accountSid && twilio.apiKeySid == FakeTwilio.apiKeySid)
        #expect(twilio.sender == .from(FakeTwilio.from) && twilio.baseURL == "https://api.twilio.com")
        #expect(twilio.timeout == .seconds(10) && twilio.retry.attempts == 3)
        #expect(TwilioSMSSender(configuration: twilio, logger: TestDatabase.logger).isLive)

        var service = Self.complete
        service["TWILIO_FROM"] = nil
        service["TWILIO_MESSAGING_SERVICE_SID"] = FakeTwilio.messagingServiceSid
        service["TWILIO_API_BASE_URL"] = "http://127.0.0.1:8089/"
        let viaService = try #require(try TwilioConfiguration.fromEnvironment(service))
        #expect(viaService.sender == .messagingService(FakeTwilio.messagingServiceSid))
        #expect(viaService.baseURL == "http://127.0.0.1:8089")
    }

    @Test("what is missing is named, all of it at once")
    func missing() {
        #expect(
            Self.refusal(["TWILIO_ACCOUNT_SID": FakeTwilio.accountSid])
                == "TWILIO_ACCOUNT_SID is set, so SMS go to Twilio, but TWILIO_API_KEY_SID, TWILIO_API_KEY_SECRET, TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID are missing"
        )
        var noSecret = Self.complete
        noSecret["TWILIO_API_KEY_SECRET"] = ""
        #expect(
            Self.refusal(noSecret)
                == "TWILIO_ACCOUNT_SID is set, so SMS go to Twilio, but TWILIO_API_KEY_SECRET is missing")
        var noAccount = Self.complete
        noAccount["TWILIO_ACCOUNT_SID"] = nil
        #expect(Self.refusal(noAccount)?.hasSuffix("are set without TWILIO_ACCOUNT_SID") == true)
        var both = Self.complete
        both["TWILIO_MESSAGING_SERVICE_SID"] = FakeTwilio.messagingServiceSid
        #expect(Self.refusal(both) == "set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID, not both")
    }

    @Test(
        "wrong shapes are refused, naming the variable and never its value",
        arguments: [
            ("TWILIO_ACCOUNT_SID", "AC0123", "TWILIO_ACCOUNT_SID"),
            ("TWILIO_ACCOUNT_SID", "SK0123456789abcdef0123456789abcdef", "TWILIO_ACCOUNT_SID"),
            ("TWILIO_API_KEY_SID", FakeTwilio.accountSid, "holds an Account SID"),
            ("TWILIO_API_KEY_SID", "SK0123456789abcdef0123456789abcdeg", "TWILIO_API_KEY_SID"),
            ("TWILIO_API_KEY_SECRET", "secret with spaces", "TWILIO_API_KEY_SECRET"),
            ("TWILIO_API_KEY_SECRET", "secret\n", "TWILIO_API_KEY_SECRET"),
            ("TWILIO_FROM", "08012345678", "TWILIO_FROM"),
            ("TWILIO_FROM", "+0123456789", "TWILIO_FROM"),
            ("TWILIO_FROM", "+1234567890123456", "TWILIO_FROM"),
            ("TWILIO_API_BASE_URL", "http://api.twilio.com", "https"),
            ("TWILIO_API_BASE_URL", "http://127.0.0.1.example.com", "https"),
        ])
    func shapes(variable: String, value: String, named: String) throws {
        var environment = Self.complete
        environment[variable] = value
        let refusal = try #require(Self.refusal(environment))
        #expect(refusal.contains(named), "\(refusal)")
        #expect(!refusal.contains(value), "the value is never repeated: \(refusal)")
    }
}
