import CountersignServer
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A local fake of the part of Stripe's API the Stripe provider uses, for tests only (this machine
/// cannot reach Stripe). It listens on 127.0.0.1 and reproduces Stripe's documented behaviour:
/// bearer-key authentication (401 otherwise), form-encoded bodies with bracket notation (400
/// `parameter_unknown` / `parameter_missing`), idempotency (the same key and parameters replay the
/// first answer with `Idempotent-Replayed: true`; other parameters are 400 `idempotency_error`),
/// customers, attaching Stripe's test card tokens, PaymentIntents created and confirmed (success,
/// 3-D Secure and bank redirects to `requires_action`, 402 `card_declined` carrying the intent),
/// retrieve, and cancel (400 once succeeded). Test hooks answer redirects, fail or stall the next
/// requests, and write signed webhook events. Unknown routes are 404 and recorded as unexpected.
final class FakeStripe: Sendable {
    static let secretKey = "sk_test_fakeCountersign0123456789abcdef"
    static let webhookSecret = "whsec_fakeCountersign0123456789abcdef"
    static let apiVersion = "2024-06-20"
    static let cardExpiryYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 4

    let state = Mutex(State())
    private let port = Mutex(0)

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port.withLock { $0 })" }

    /// A provider configuration pointing at this fake, in test mode unless `secretKey` says otherwise.
    func configuration(secretKey: String = FakeStripe.secretKey, timeout: Duration = .seconds(10)) throws
        -> StripeConfiguration
    {
        var configuration = try StripeConfiguration(
            secretKey: secretKey, baseURL: baseURL, webhookSecret: Self.webhookSecret)
        configuration.timeout = timeout
        return configuration
    }

    /// Starts a fake, runs `body` with it, and stops it.
    static func run<T: Sendable>(_ body: @Sendable (FakeStripe) async throws -> T) async throws -> T {
        let fake = FakeStripe()
        let router = Router()
        router.get("**", use: fake.handle)
        router.post("**", use: fake.handle)
        return try await LoopbackHTTPServer.run(router, name: "fake-stripe") { port in
            fake.port.withLock { $0 = port }
            return try await body(fake)
        }
    }

    @Sendable func handle(_ request: Request, context: BasicRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        if let stall = state.withLock({ $0.stalls.isEmpty ? nil : $0.stalls.removeFirst() }) {
            try await Task.sleep(for: stall)
        }
        let call = Call(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
            body: String(buffer: body),
            authorization: request.headers[.authorization], idempotencyKey: request.headers[.idempotencyKey],
            stripeVersion: request.headers[.stripeVersion], contentType: request.headers[.contentType]
        )
        let answer = state.withLock { $0.answer(call) }
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[.requestId] = "req_" + UUID().uuidString.prefix(14).lowercased()
        if answer.replayed { headers[.idempotentReplayed] = "true" }
        return Response(
            status: .init(code: answer.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

extension FakeStripe {
    /// One request as the fake saw it.
    struct Call: Sendable {
        let method: String
        let path: String
        let query: String
        let body: String
        let authorization: String?
        let idempotencyKey: String?
        let stripeVersion: String?
        let contentType: String?
    }

    /// One answer: a status and a JSON body.
    struct Answer: Sendable, Equatable {
        var status: Int
        var body: [UInt8]
        var replayed = false
    }

    /// Every request so far, oldest first.
    var calls: [Call] { state.withLock { $0.calls } }
    /// Requests to routes the fake does not know: a test expects none.
    var unexpected: [String] { state.withLock { $0.unexpected } }
    /// How many answers were replays of an idempotent request.
    var replays: Int { state.withLock { $0.replays } }
    var intents: [FakePaymentIntent] { state.withLock { Array($0.intents.values) } }
    var customers: [String: [String: String]] { state.withLock { $0.customers } }

    func intent(_ id: String) -> FakePaymentIntent? { state.withLock { $0.intents[id] } }
    /// The refunds Stripe made, as its API shows them.
    var refunds: [[String: FakeJSON]] { state.withLock { Array($0.refunds.values) } }
    func paymentMethod(_ id: String) -> FakePaymentMethod? { state.withLock { $0.paymentMethods[id] } }

    /// The next `count` requests answer `status` with Stripe's `api_error`, doing nothing.
    func failNext(_ count: Int = 1, status: Int = 500) {
        state.withLock { $0.failures += Array(repeating: status, count: count) }
    }

    /// The next request waits `duration` before it is handled (and is then handled in full, as
    /// Stripe finishes a request whose client gave up).
    func stallNext(_ duration: Duration) { state.withLock { $0.stalls.append(duration) } }

    /// The payer authenticated (3-D Secure) or authorized at the bank: `requires_action` → `succeeded`.
    func completeRedirect(_ intentId: String) throws {
        try state.withLock { state in
            guard var intent = state.intents[intentId], intent.status == "requires_action" else {
                throw TestFailure("\(intentId) does not require action")
            }
            intent.status = "succeeded"
            intent.nextAction = .null
            state.intents[intentId] = intent
        }
    }

    /// The race of a cancel with a success: the payer completes 3-D Secure on `intentId` just
    /// before the next cancel of it arrives, which Stripe then refuses (the intent succeeded).
    func succeedBeforeNextCancel(_ intentId: String) {
        state.withLock { _ = $0.succeedBeforeCancel.insert(intentId) }
    }

    /// Someone else cancels the intent at Stripe (the Dashboard, another integration), as
    /// `POST /v1/payment_intents/{id}/cancel` does: `last_payment_error` stays as it was.
    func cancelAtStripe(_ intentId: String) throws {
        try state.withLock { state in
            guard state.intents[intentId] != nil, let form = FakeForm(encoded: "cancellation_reason=abandoned"),
                state.cancel(intentId, form).status == 200
            else { throw TestFailure("\(intentId) cannot be canceled") }
        }
    }

    /// The payer failed or refused: back to `requires_payment_method` with Stripe's error.
    func failRedirect(_ intentId: String) throws {
        try state.withLock { state in
            guard var intent = state.intents[intentId], intent.status == "requires_action" else {
                throw TestFailure("\(intentId) does not require action")
            }
            let card = intent.paymentMethodTypes.first == "card"
            intent.status = "requires_payment_method"
            intent.nextAction = .null
            intent.paymentMethod = nil
            intent.lastPaymentError =
                card
                ? [
                    "type": "invalid_request_error", "code": "payment_intent_authentication_failure",
                    "message":
                        "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.",
                ]
                : [
                    "type": "invalid_request_error", "code": "payment_intent_payment_attempt_failed",
                    "message": "The payment failed.",
                ]
            state.intents[intentId] = intent
        }
    }

    /// A webhook event about the intent as it stands, as Stripe sends it.
    func event(_ type: String, intentId: String) throws -> [UInt8] {
        guard let intent = intent(intentId) else { throw TestFailure("no intent \(intentId)") }
        let event: FakeJSON = [
            "id": .string("evt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24)),
            "object": "event",
            "api_version": .string(Self.apiVersion), "created": .int(Int64(Date().timeIntervalSince1970)),
            "livemode": false,
            "type": .string(type), "data": ["object": intent.json], "pending_webhooks": 1,
        ]
        return event.bytes
    }

    /// `Stripe-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, computed here
    /// rather than by the server's verifier, so a mistake in one is not hidden by the other.
    static func signature(_ body: [UInt8], timestamp: Int64, secret: String = webhookSecret) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        mac.update(data: Array("\(timestamp).".utf8))
        mac.update(data: body)
        return "t=\(timestamp),v1=" + mac.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let stripeVersion = Self("Stripe-Version")!
    static let requestId = Self("Request-Id")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
