import CountersignServer
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A local fake of Twilio's Messages API, for tests only (this machine cannot reach Twilio). Every
/// request is checked against the `CreateMessage` contract from Twilio's OpenAPI description
/// (`TwilioMessageContract`); a request that breaks it is recorded and refused. Then it answers as
/// Twilio documents: 401 with 20003 unless the API key, its secret and the account match, 21604,
/// 21603 and 21602 for a missing `To`, sender or body, 21211 for a `To` not in E.164, 21659 for a
/// `From` that is not the account's, else 201 with a Message (`SM…`). Hooks script Twilio's errors,
/// 5xx, or requests never answered. Other routes are 404 and recorded as unexpected; `run` fails
/// the test if any request broke the contract or was unexpected.
final class FakeTwilio: Sendable {
    static let accountSid = "AC0123456789abcdef0123456789abcdef"
    static let apiKeySid = "SKfedcba9876543210fedcba9876543210"
    /// A test value, never a real key's.
    static let apiKeySecret = "fakeTwilioSecret0123456789abcdef"
    /// Twilio's documented "magic" number for test credentials, a valid From.
    static let from = "+15005550006"
    static let messagingServiceSid = "MG00112233445566778899aabbccddeeff"

    let contract: TwilioMessageContract
    let state = Mutex(State())
    private let port = Mutex(0)
    private let held = Mutex(Held())

    init() throws { contract = try TwilioMessageContract.load() }

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port.withLock { $0 })" }

    /// A configuration pointing at this fake, with short waits between attempts.
    func configuration(
        sender: TwilioConfiguration.Sender = .from(FakeTwilio.from), secret: String = FakeTwilio.apiKeySecret,
        timeout: Duration = .seconds(10)
    ) throws -> TwilioConfiguration {
        var configuration = try TwilioConfiguration(
            accountSid: Self.accountSid, apiKeySid: Self.apiKeySid, apiKeySecret: secret, sender: sender,
            baseURL: baseURL)
        configuration.timeout = timeout
        configuration.retry.baseDelay = .milliseconds(5)
        configuration.retry.maxDelay = .milliseconds(50)
        return configuration
    }

    /// Starts a fake, runs `body` with it, and stops it; throws if a request broke the contract or
    /// reached a route the fake does not know.
    static func run<T: Sendable>(_ body: @Sendable (FakeTwilio) async throws -> T) async throws -> T {
        let fake = try FakeTwilio()
        let router = Router()
        router.post("**", use: fake.handle)
        router.get("**", use: fake.handle)
        let result = try await LoopbackHTTPServer.run(router, name: "fake-twilio") { port in
            fake.port.withLock { $0 = port }
            defer { fake.releaseHeld() }
            return try await body(fake)
        }
        let (violations, unexpected) = fake.state.withLock { ($0.violations, $0.unexpected) }
        guard violations.isEmpty, unexpected.isEmpty else {
            throw TestFailure("FakeTwilio: contract violations \(violations), unexpected requests \(unexpected)")
        }
        return result
    }

    @Sendable func handle(_ request: Request, context: BasicRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        let call = Call(
            method: request.method.rawValue, path: request.uri.path, contentType: request.headers[.contentType],
            authorization: request.headers[.authorization], body: String(buffer: body))
        let (answer, hold) = state.withLock { state in (state.answer(call, contract: contract), state.neverAnswer) }
        if hold { await waitUntilReleased() }
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[.twilioRequestId] = "RQ" + Self.hex(32)
        if let retryAfter = answer.retryAfter { headers[.retryAfter] = retryAfter }
        return Response(
            status: .init(code: answer.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    static func hex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement()! })
    }

    /// Requests held by `neverAnswer()` wait here until the fake stops.
    private struct Held {
        var released = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private func waitUntilReleased() async {
        await withCheckedContinuation { continuation in
            let resumeNow = held.withLock { held in
                if !held.released { held.waiting.append(continuation) }
                return held.released
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func releaseHeld() {
        let waiting = held.withLock { held in
            held.released = true
            defer { held.waiting = [] }
            return held.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

extension HTTPField.Name {
    static let twilioRequestId = Self("Twilio-Request-Id")!
}
