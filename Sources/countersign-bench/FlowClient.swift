import CountersignAPI
import CountersignClient
import Foundation

/// One simulated app: loops options → sign on the device → verify → top-up with the token (or, in
/// two calls, options → sign → top-up carrying the assertion) for its own user through the SDK, one
/// request at a time, on a thread of its own over one kept-alive connection.
struct FlowClient: Sendable {
    /// The thread the client's calls run (and block) on, and its user's login.
    let executor: DedicatedThreadExecutor
    let phone: String
    /// The SDK over the client's connection, in the user's session (no retries: a failure counts).
    let api: CountersignAPIClient
    /// The user's registered software device key.
    let signer: DeviceKeySigner
    /// 3 (verify, then the top-up with the token) or 2 (the top-up carries the assertion).
    var calls = 3

    /// The payment every flow authorizes: ₦5.00 of MTN airtime to a number the simulated supplier delivers to.
    static let amount: Int64 = 500
    static let productCode = "AIRTIME_MTN"
    static let recipientPhone = "08012345678"
    static let intent = AuthenticationOptionsRequest(
        amount: amount, productCode: productCode, recipientPhone: recipientPhone, supplierSlug: "mtn")

    /// Runs flows on the client's thread until the window ends or the budget is spent, and returns what it measured.
    func run(window: FlowWindow, budget: FlowBudget) async -> FlowSamples {
        await Task(executorPreference: executor) { await loop(window: window, budget: budget) }.value
    }

    private func loop(window: FlowWindow, budget: FlowBudget) async -> FlowSamples {
        var samples = FlowSamples()
        while ContinuousClock.now < window.end, budget.take() {
            let measured = ContinuousClock.now >= window.measureFrom
            do {
                let timings = try await flow()
                if measured { samples.record(timings) } else { samples.warmupFlows += 1 }
            } catch {
                let key = (error as? FlowFailure)?.key ?? "\(error)"
                if measured { samples.errors[key, default: 0] += 1 } else { samples.warmupErrors += 1 }
                // Do not spin on a server that refuses everything.
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        return samples
    }

    /// One payment: its calls, timed; throws `FlowFailure` naming the step that failed.
    private func flow() async throws -> FlowTimings {
        let start = ContinuousClock.now
        let (options, optionsTime) = try await timed("options") { try await api.authenticationOptions(Self.intent) }

        // The device checks and signs the challenge (client CPU, part of the flow's time, not the call's).
        let assertion: AuthenticationResponseJSON
        do {
            assertion = try signer.authorize(airtime: options)
        } catch {
            throw FlowFailure(key: "sign \(error)")
        }
        var verifyTime: Duration?
        var topUp = TopUpRequest(
            amount: Self.amount, productCode: Self.productCode, recipientPhone: Self.recipientPhone)
        if calls == 3 {
            let (verified, time) = try await timed("verify") { try await api.verifyAuthentication(assertion) }
            guard let token = verified.verificationToken else { throw FlowFailure(key: "verify without token") }
            (topUp.verificationToken, verifyTime) = (token, time)
        } else {
            topUp.assertion = assertion
        }
        let (result, topUpTime) = try await timed("topup") { try await api.topUp(topUp) }
        guard result.success else { throw FlowFailure(key: "topup 200 success=false \(result.code ?? "")") }
        return FlowTimings(options: optionsTime, verify: verifyTime, topUp: topUpTime, flow: start.duration(to: .now))
    }

    /// Times one SDK call; its failure becomes a `FlowFailure` keyed by call, status and code.
    private func timed<Answer>(_ name: String, _ call: () async throws -> Answer) async throws -> (Answer, Duration) {
        let start = ContinuousClock.now
        do {
            let answer = try await call()
            return (answer, start.duration(to: .now))
        } catch let error as CountersignClientError {
            switch error {
            case .api(let status, let code, _, _, _): throw FlowFailure(key: "\(name) \(status) \(code)")
            case .transport(let description): throw FlowFailure(key: "\(name) transport \(description.prefix(60))")
            case .decoding: throw FlowFailure(key: "\(name) undecodable")
            }
        }
    }
}
