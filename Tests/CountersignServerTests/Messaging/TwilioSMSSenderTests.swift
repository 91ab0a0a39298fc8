import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Testing

@testable import CountersignServer

/// The Twilio SMS sender over loopback against `FakeTwilio`, which checks every request against
/// the `CreateMessage` contract from Twilio's OpenAPI description: what is sent, how Twilio's
/// error codes map to `SMSError`, what is retried and what is not, and that the secret stays out
/// of errors and logs.
@Suite("Twilio SMS sender")
struct TwilioSMSSenderTests {
    static let phone = "+2348012345678"

    static func withSender<T: Sendable>(
        sender: TwilioConfiguration.Sender = .from(FakeTwilio.from), timeout: Duration = .seconds(10),
        logger: Logger = TestDatabase.logger, _ body: @Sendable (TwilioSMSSender, FakeTwilio) async throws -> T
    ) async throws -> T {
        try await FakeTwilio.run { fake in
            let configuration = try fake.configuration(sender: sender, timeout: timeout)
            return try await body(TwilioSMSSender(configuration: configuration, logger: logger), fake)
        }
    }

    @Test("a message is sent with To, From and Body, and its SM sid is returned")
    func sends() async throws {
        let body = "Your Countersign code is 123 456. Don't share it: ünïcode & symbols + = % ok"
        try await Self.withSender { sender, fake in
            let sent = try await sender.send(to: Self.phone, body: body)
            #expect(sent.providerId.wholeMatch(of: /SM[0-9a-f]{32}/) != nil)
            let call = try #require(fake.calls.only)
            #expect(call.path == "/2010-04-01/Accounts/\(FakeTwilio.accountSid)/Messages.json")
            #expect(call.form.pairs.map(\.key) == ["To", "From", "Body"])
            #expect(call.form["To"] == Self.phone && call.form["From"] == FakeTwilio.from && call.form["Body"] == body)
            #expect(fake.sent.count == 1)
            #expect(sender.isLive == false, "a plain-http loopback fake reaches no phone")
        }
    }

    @Test("with a Messaging Service the request names it instead of a From")
    func messagingService() async throws {
        try await Self.withSender(sender: .messagingService(FakeTwilio.messagingServiceSid)) { sender, fake in
            _ = try await sender.send(to: Self.phone, body: "hello")
            let form = try #require(fake.calls.only).form
            #expect(form["MessagingServiceSid"] == FakeTwilio.messagingServiceSid && form["From"] == nil)
        }
    }

    @Test("the fixture is Twilio's CreateMessage, and the fake refuses requests that break it")
    func contract() async throws {
        try await FakeTwilio.run { fake in
            let contract = fake.contract
            #expect(
                contract.operationId == "CreateMessage" && contract.source.repository.hasSuffix("twilio/twilio-oai"))
            #expect(contract.required == ["To"] && contract.security.values.contains { $0.scheme == "basic" })
            #expect(["To", "From", "MessagingServiceSid", "Body"].allSatisfy { contract.properties[$0] != nil })

            let path = "/2010-04-01/Accounts/\(FakeTwilio.accountSid)/Messages.json"
            let basic = "Basic " + Data("\(FakeTwilio.apiKeySid):\(FakeTwilio.apiKeySecret)".utf8).base64EncodedString()
            let form = "application/x-www-form-urlencoded"
            let cases: [(path: String, type: String, auth: String?, body: String, violation: String)] = [
                (path, form, basic, "To=%2B15551234567&From=%2B15005550006&Body=x&Colour=red", "field Colour"),
                (path, form, basic, "From=%2B15005550006&Body=x", "required field To"),
                (path, form, nil, "To=%2B15551234567&From=%2B15005550006&Body=x", "no HTTP Basic"),
                (path, "application/json", basic, "To=%2B15551234567&Body=x", "content type"),
                (path, form, basic, "To=%2B15551234567&Body=x&ValidityPeriod=soon", "ValidityPeriod"),
                (path, form, basic, "To=%2B15551234567&Body=x&MessagingServiceSid=MG1", "MessagingServiceSid"),
                (path, form, basic, "To=%2B15551234567&To=%2B15551234568&Body=x", "given 2 times"),
                ("/2010-04-01/Accounts/AC123/Messages.json", form, basic, "To=%2B15551234567&Body=x", "AccountSid"),
            ]
            for test in cases {
                var request = HTTPClientRequest(url: fake.baseURL + test.path)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: test.type)
                if let auth = test.auth { request.headers.add(name: "Authorization", value: auth) }
                request.body = .bytes(ByteBuffer(string: test.body))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                #expect(response.status.code == 400, "\(test.violation)")
                let violations = fake.takeViolations()
                #expect(violations.count == 1 && violations[0].contains(test.violation), "\(violations)")
            }
            #expect(fake.sent.isEmpty)

            var list = HTTPClientRequest(url: fake.baseURL + path)
            list.method = .GET
            #expect(try await HTTPClient.shared.execute(list, timeout: .seconds(10)).status.code == 404)
            #expect(fake.takeUnexpected() == ["GET \(path)"])
        }
    }

    @Test("the fake, as Twilio, refuses a number not in E.164 and a From not the account's")
    func twilioChecks() async throws {
        try await Self.withSender { sender, fake in
            let failure = await Self.failure { try await sender.send(to: "08012345678", body: "x") }
            #expect(failure == "undeliverable 21211")
            #expect(fake.calls.count == 1 && fake.sent.isEmpty)
        }
        try await Self.withSender(sender: .from("+15005550001")) { sender, fake in
            let failure = await Self.failure { try await sender.send(to: Self.phone, body: "x") }
            #expect(failure == "misconfigured 21659")
        }
    }

    /// How `send` failed, as `kind code` (`undeliverable 21211`, `unavailable`); nil if it did not.
    static func failure(_ send: () async throws -> SentSMS) async -> String? {
        do {
            _ = try await send()
            return nil
        } catch let error as SMSError {
            switch error {
            case .undeliverable(let code, _): return "undeliverable \(code)"
            case .misconfigured(let code, _): return "misconfigured \(code)"
            case .unavailable: return "unavailable"
            }
        } catch {
            return "not an SMSError: \(error)"
        }
    }
}

extension Array {
    /// The one element, nil if there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
