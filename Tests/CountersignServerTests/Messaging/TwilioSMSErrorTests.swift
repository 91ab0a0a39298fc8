import Foundation
import Testing

@testable import CountersignServer

/// How the Twilio sender maps Twilio's refusals to `SMSError`, what it tries again (network
/// failures, 429, 5xx) and what it never does (a refused message), and that the API key's secret
/// appears in no error and no log line.
@Suite("Twilio SMS errors and retries")
struct TwilioSMSErrorTests {
    typealias Sender = TwilioSMSSenderTests

    @Test(
        "each Twilio error code gives its SMSError, after one request",
        arguments: [
            (21211, "undeliverable 21211"), (21614, "undeliverable 21614"), (21408, "undeliverable 21408"),
            (21610, "undeliverable 21610"), (21612, "undeliverable 21612"), (21265, "undeliverable 21265"),
            (21635, "undeliverable 21635"), (20003, "misconfigured 20003"), (20404, "misconfigured 20404"),
            (21606, "misconfigured 21606"), (21659, "misconfigured 21659"), (21212, "misconfigured 21212"),
            // 21617 (a body over 1,600 characters) is in neither table: only an operator can act on it.
            (21608, "misconfigured 21608"), (21617, "misconfigured 21617"),
        ])
    func mapping(code: Int, expected: String) async throws {
        let status = code == 20003 ? 401 : code == 20404 ? 404 : 400
        try await Sender.withSender { sender, fake in
            fake.answerNext(FakeTwilio.error(status, code: code, message: "Twilio says \(code)"))
            let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(failure == expected)
            #expect(fake.calls.count == 1, "a refusal is never retried")
        }
    }

    @Test("a refused key is misconfigured: the fake checks the secret, not only its shape")
    func wrongSecret() async throws {
        try await FakeTwilio.run { fake in
            let sender = TwilioSMSSender(
                configuration: try fake.configuration(secret: "notTheSecret0123456789"), logger: TestDatabase.logger)
            let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(failure == "misconfigured 20003")
            #expect(fake.calls.count == 1)
        }
    }

    @Test("500, 503 without Twilio's JSON, 429 and 20429 are retried, and the message then goes")
    func retried() async throws {
        try await Sender.withSender { sender, fake in
            fake.answerNext(FakeTwilio.error(500, code: 20500, message: "Internal Server Error"))
            let first = try await sender.send(to: Sender.phone, body: "x")
            #expect(first.providerId.hasPrefix("SM"))
            #expect(fake.calls.count == 2 && fake.sent.count == 1)

            fake.answerNext(
                FakeTwilio.Answer(status: 503, body: Array("<html>Service Unavailable</html>".utf8)),
                FakeTwilio.error(429, code: 20429, message: "Too Many Requests", retryAfter: "1"))
            let second = try await sender.send(to: Sender.phone, body: "x")
            #expect(second.providerId.hasPrefix("SM") && second != first)
            #expect(fake.calls.count == 5 && fake.sent.count == 2)
        }
    }

    @Test("Twilio failing every attempt is unavailable after exactly three")
    func exhausted() async throws {
        try await Sender.withSender { sender, fake in
            fake.answerNext(
                FakeTwilio.error(500, code: nil, message: "a"), FakeTwilio.error(502, code: nil, message: "b"),
                FakeTwilio.error(503, code: nil, message: "c"))
            let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(failure == "unavailable")
            #expect(fake.calls.count == 3 && fake.sent.isEmpty)
        }
    }

    @Test("a 400 is not retried, nor a 2xx without a Message SID (Twilio may have taken it)")
    func notRetried() async throws {
        try await Sender.withSender { sender, fake in
            fake.answerNext(FakeTwilio.error(400, code: 21211, message: "The 'To' number is not a valid phone number."))
            let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(failure == "undeliverable 21211")
            #expect(fake.calls.count == 1)

            fake.answerNext(FakeTwilio.Answer(status: 201, body: Array(#"{"status": "queued"}"#.utf8)))
            let unreadable = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(unreadable == "unavailable")
            #expect(fake.calls.count == 2)
        }
    }

    @Test("a Twilio that never answers is unavailable once every attempt has timed out")
    func timeout() async throws {
        try await Sender.withSender(timeout: .milliseconds(300)) { sender, fake in
            fake.neverAnswer()
            let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
            #expect(failure == "unavailable")
            // Three attempts at most. Under load an attempt can time out before its connection reaches
            // the fake, so how many arrived is not exact.
            #expect((1...3).contains(fake.calls.count), "\(fake.calls.count) attempts reached the fake")
        }
    }

    @Test("nothing listening is unavailable")
    func refusedConnection() async throws {
        var configuration = try TwilioConfiguration(
            accountSid: FakeTwilio.accountSid, apiKeySid: FakeTwilio.apiKeySid, apiKeySecret: FakeTwilio.apiKeySecret,
            sender: .from(FakeTwilio.from), baseURL: "http://127.0.0.1:1")
        configuration.retry.baseDelay = .milliseconds(5)
        // AsyncHTTPClient keeps trying to connect until the deadline: each attempt lasts all of it.
        configuration.timeout = .milliseconds(500)
        let sender = TwilioSMSSender(configuration: configuration, logger: TestDatabase.logger)
        let failure = await Sender.failure { try await sender.send(to: Sender.phone, body: "x") }
        #expect(failure == "unavailable")
    }

    @Test("the secret appears in no error, no log line and no description, even when an answer echoes it")
    func secretNeverShown() async throws {
        let lines = RecordingLogHandler.Lines()
        let basic = Data("\(FakeTwilio.apiKeySid):\(FakeTwilio.apiKeySecret)".utf8).base64EncodedString()
        let errors = try await Sender.withSender(logger: RecordingLogHandler.logger(lines)) { sender, fake in
            var seen: [SMSError] = []
            let echo = "you sent \(FakeTwilio.apiKeySecret) as Basic \(basic)"
            for (status, code) in [(401, 20003), (400, 21211), (500, 20500), (500, 20500), (500, 20500), (418, 0)] {
                fake.answerNext(FakeTwilio.error(status, code: code, message: echo))
            }
            for _ in 0..<4 {
                do throws(SMSError) {
                    _ = try await sender.send(to: Sender.phone, body: "code 424242")
                } catch {
                    seen.append(error)
                }
            }
            return seen
        }
        #expect(
            errors.count == 4 && errors.contains { $0.description.contains("you sent [redacted] as [redacted]") })
        for text in errors.map(\.description) + lines.all {
            #expect(!text.contains(FakeTwilio.apiKeySecret) && !text.contains(basic), "\(text)")
            #expect(!text.contains("424242"), "the message body is never logged: \(text)")
        }
        #expect(lines.all.contains { $0.contains("trying again") })
        let configuration = try TwilioConfiguration(
            accountSid: FakeTwilio.accountSid, apiKeySid: FakeTwilio.apiKeySid, apiKeySecret: FakeTwilio.apiKeySecret,
            sender: .from(FakeTwilio.from))
        #expect("\(configuration)" == "Twilio (account AC…cdef, from +15005550006, https://api.twilio.com)")
    }
}
