import CountersignAPI
import CountersignClient
import CountersignCore
import Foundation
import Synchronization
import Testing

/// The payment screen's scenarios in `Tests/Fixtures/checkout-scenarios.json`, which the web's checkout
/// model runs too (`Tests/Web/checkout-scenarios.test.mjs`), driven through `PaymentScreenModel` over a
/// scripted server: the same answers, the same steps, the same states passed through, except where a
/// step, a call or an expectation says it is only the web's.
@Suite("Checkout scenarios shared with the web")
struct CheckoutScenarioTests {
    typealias State = PaymentScreenModel.State
    typealias JSON = [String: Any]

    /// `Tests/Fixtures/checkout-scenarios.json`, found from this file's path.
    static func vectors() throws -> JSON {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("checkout-scenarios.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? JSON)
    }

    static func scenarioNames() -> [String] {
        let scenarios = (try? vectors())?["scenarios"] as? [JSON] ?? []
        return scenarios.compactMap { $0["name"] as? String }
    }

    /// Whether a step, a call or an expectation applies to the SDK.
    static func forSDK(_ item: JSON) -> Bool {
        (item["only"] as? String).map { $0 == "sdk" } ?? true
    }

    static func text(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    /// The request the SDK's client sends for a call of the scenarios.
    static let requests: [String: (method: String, path: String)] = [
        "profile": ("GET", "/user/profile"), "product": ("GET", "/products/prd_1"), "bid": ("GET", "/bids/bid_1"),
        "order": ("GET", "/bids/bid_1/order"), "cards": ("GET", "/payment-methods/cards"),
        "totals": ("POST", "/checkout/totals"), "placeOrder": ("POST", "/orders"), "pay": ("POST", "/orders/ord_1/pay"),
        "payWithPin": ("POST", "/orders/ord_1/pay"), "walletPayment": ("POST", "/orders/ord_1/pay"),
        "payment": ("GET", "/orders/ord_1/payment"), "withdrawBid": ("POST", "/bids/bid_1/withdraw"),
    ]

    /// What the wallet authorization does when the model asks it: the passkey's token, the PIN the
    /// app asked for, or `PasskeyRequired` (as `WalletOrderPayment.authorization` does).
    enum WalletOutcome: Sendable {
        case token, pin, passkeyRequired
    }

    /// The wallet authorizations a scenario scripts, taken in order.
    final class WalletScript: Sendable {
        private let outcomes = Mutex<[WalletOutcome]>([])

        func append(_ outcome: WalletOutcome) { outcomes.withLock { $0.append(outcome) } }
        func next() -> WalletOutcome? { outcomes.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        var isEmpty: Bool { outcomes.withLock { $0.isEmpty } }
    }

    /// The shared name of a state of the SDK's model.
    static func shared(_ state: State) -> String {
        switch state {
        case .idle: "idle"
        case .loading: "loading"
        case .loadFailed: "loadFailed"
        case .unavailable: "unavailable"
        case .ready(let checkout):
            switch checkout.notice {
            case .paymentFailed: "failed"
            case .paymentAbandoned: "abandoned"
            case .passkeyRequired: "passkeyRequired"
            case .error: "error"
            case nil: "ready"
            }
        case .paying(_, .redirected): "redirect"
        case .paying(_, .confirming): "polling"
        case .paying: "paying"
        case .paymentFailing: "paymentFailing"
        case .statusUnknown: "statusUnknown"
        case .confirmed: "paid"
        case .withdrawing: "withdrawing"
        case .withdrawn: "withdrawn"
        }
    }

    @Test("the scenarios are read: at least six, each starting with a load")
    func read() throws {
        let scenarios = try #require(try Self.vectors()["scenarios"] as? [JSON])
        #expect(scenarios.count >= 6)
        for scenario in scenarios {
            #expect(((scenario["steps"] as? [JSON])?.first?["do"] as? String) == "load")
        }
    }

    @Test("scenario", arguments: scenarioNames())
    func scenario(_ name: String) async throws {
        let vectors = try Self.vectors()
        let fixtures = try #require(vectors["fixtures"] as? JSON)
        let scenario = try #require((vectors["scenarios"] as? [JSON])?.first { $0["name"] as? String == name })
        let steps = try #require(scenario["steps"] as? [JSON]).filter(Self.forSDK)
        let bidName = try #require(scenario["bid"] as? String)
        let bid = try #require(fixtures[bidName] as? JSON)

        let transport = ScriptedTransport()
        let redirects = ScriptedRedirectHandler(
            outcomes: steps.compactMap { $0["redirect"] as? String }.map { $0 == "returned" ? .returned : .abandoned })
        let wallet = WalletScript()
        let authorized = Log<String>()
        let model = PaymentScreenModel(
            client: Fixture.client(transport), redirects: redirects, returnURL: CheckoutFixture.returnURL,
            timing: .init(pollRetries: 3, sleep: { _ in }),
            authorizeWallet: { order in
                authorized.append(order.id)
                switch wallet.next() {
                case .token: return PayOrderRequest(verificationToken: "vt_1")
                case .pin: return PayOrderRequest(pin: "4827")
                case .passkeyRequired:
                    throw AirtimePayment.PasskeyRequired(reason: .localAuth(.cancelled))
                case nil:
                    Issue.record("the wallet authorization was not expected")
                    return nil
                }
            })
        let seen = Log<String>()
        model.screen.onChange { seen.append(Self.shared($0)) }

        for step in steps {
            let action = try #require(step["do"] as? String)
            // The server's answers for this step, in order.
            var server: [JSON] = (step["server"] as? [JSON] ?? []).filter(Self.forSDK)
            if action == "load" {
                server = [
                    ["call": "profile", "answer": try #require(fixtures["profile"])],
                    ["call": "product", "answer": try #require(fixtures["product"])],
                    ["call": "bid", "answer": bid],
                    ["call": "cards", "answer": ["cards": try #require(fixtures["cards"])]],
                ]
            }
            for call in server {
                let name = try #require(call["call"] as? String)
                if name == "walletPayment" {
                    let refused = call["refused"] as? JSON
                    let outcome: WalletOutcome =
                        refused == nil ? .token : (refused?["pinAllowed"] as? Bool == true ? .pin : .passkeyRequired)
                    wallet.append(outcome)
                    // Only a token reaches the server here; the PIN's payment is the script's next call.
                    guard outcome == .token else { continue }
                }
                let request = try #require(Self.requests[name], "no request for \(name)")
                if let refused = call["refused"] as? JSON {
                    let status = try #require(refused["status"] as? Int)
                    transport.expect(
                        request.method, request.path, status: status, json: try Self.text(["error": refused]))
                } else {
                    transport.expect(request.method, request.path, json: try Self.text(try #require(call["answer"])))
                }
            }

            let before = seen.all.count
            switch action {
            case "load":
                await model.load(bidId: try #require(bid["id"] as? String), productId: "prd_1")
            case "choose":
                if let method = step["paymentMethod"] as? String {
                    #expect(await model.choosePaymentMethod(try #require(PaymentMethodKind(rawValue: method))))
                }
                if let delivery = step["delivery"] as? String {
                    #expect(await model.chooseDelivery(delivery))
                }
                _ = await model.settledTotals()
            case "pay":
                await model.pay()
            case "abandon":
                await model.abandon()
            default:
                Issue.record("no such step for the SDK: \(action)")
            }

            var states: [String] = []
            for state in seen.all.dropFirst(before) where states.last != state { states.append(state) }
            let expect = step["expect"]
            let expected = try #require((expect as? [String]) ?? ((expect as? JSON)?["sdk"] as? [String]))
            #expect(states == expected, "\(action): the states")
            transport.verifyAllUsed()
            #expect(wallet.isEmpty, "\(action): the wallet authorization was asked for")

            let screen = model.screen.value
            if let total = step["total"] as? Int {
                guard case .ready(let totals)? = screen.checkout?.totals else {
                    Issue.record("\(action): no totals shown, \(String(describing: screen.checkout?.totals))")
                    continue
                }
                #expect(totals.total == Int64(total), "the server's total is shown")
            }
            if let failure = step["failure"] as? String {
                guard case .paymentFailed(let shown)? = screen.checkout?.notice else {
                    Issue.record("\(action): no failure shown")
                    continue
                }
                #expect(shown.code == failure)
            }
            if let sent = step["sent"] as? [String: String] {
                let last = try #require(transport.requests.last { $0.path == "/checkout/totals" })
                let body = try CheckoutFixture.body(last, as: CheckoutTotalsRequest.self)
                #expect(body.bidId == bid["id"] as? String)
                #expect(sent["delivery"].map { $0 == body.delivery } ?? true)
                #expect(sent["addressId"].map { $0 == body.addressId } ?? true)
                #expect(sent["paymentMethod"].map { $0 == body.paymentMethod.rawValue } ?? true)
            }
        }
        #expect(authorized.all.allSatisfy { $0 == "ord_1" })
        #expect(redirects.opened.map(\.absoluteString).allSatisfy { $0 == "https://pay.example/sim/pay/pi_1" })
    }
}
