import CountersignAPI
import Foundation
import WebAuthn

/// One simulated app: loops options → sign on the device → verify → top-up for its own user,
/// one request at a time, on a thread of its own over one kept-alive connection.
struct FlowClient: Sendable {
    /// The server's loopback port, and whose session and device to use.
    let port: Int
    let user: BenchUser

    /// The payment every flow authorizes: ₦5.00 of MTN airtime to a number the simulated supplier delivers to.
    static let amount: Int64 = 500
    static let productCode = "AIRTIME_MTN"
    static let recipientPhone = "08012345678"
    static let optionsPath = "/biometric/auth/options?amount=\(amount)&productCode=\(productCode)&recipientPhone=\(recipientPhone)&supplierSlug=mtn"

    /// Runs flows until the window ends or the budget is spent, and returns what it measured.
    /// Blocks the calling thread throughout.
    func run(window: FlowWindow, budget: FlowBudget) -> FlowSamples {
        var samples = FlowSamples()
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        let connection = LoopbackHTTPConnection(port: port)
        while ContinuousClock.now < window.end, budget.take() {
            let measured = ContinuousClock.now >= window.measureFrom
            do {
                let timings = try flow(connection, encoder: encoder, decoder: decoder)
                if measured { samples.record(timings) } else { samples.warmupFlows += 1 }
            } catch let failure as FlowFailure {
                if measured { samples.errors[failure.key, default: 0] += 1 } else { samples.warmupErrors += 1 }
                // Do not spin on a server that refuses everything.
                usleep(2000)
            } catch {
                samples.errors["\(error)", default: 0] += 1
            }
        }
        return samples
    }

    /// One payment: the three calls, timed; throws `FlowFailure` naming the call that failed.
    private func flow(_ connection: LoopbackHTTPConnection, encoder: JSONEncoder, decoder: JSONDecoder) throws -> FlowTimings {
        let start = ContinuousClock.now
        let (optionsResponse, optionsTime) = try call("options", expect: 200) { try connection.get(Self.optionsPath, token: user.sessionToken) }
        guard let options = try? optionsResponse.decode(AuthenticationOptionsResponse.self, with: decoder),
              let challenge = Base64URL.decode(options.challenge)
        else { throw FlowFailure(key: "options undecodable") }

        // The device signs the challenge (client CPU, part of the flow's time, not the call's).
        let signed = user.device.makeAssertion(challenge: challenge)
        let credentialId = Base64URL.encode(user.device.credentialId)
        let assertion = AuthenticationResponseJSON(
            id: credentialId, rawId: credentialId,
            response: .init(clientDataJSON: Base64URL.encode(signed.clientDataJSON), authenticatorData: Base64URL.encode(signed.authenticatorData),
                            signature: Base64URL.encode(signed.signature))
        )
        let verifyBody = Array(try encoder.encode(assertion))
        let (verifyResponse, verifyTime) = try call("verify", expect: 200) { try connection.post("/biometric/auth/verify", json: verifyBody, token: user.sessionToken) }
        guard let token = (try? verifyResponse.decode(AuthenticationVerifyResponse.self, with: decoder))?.verificationToken else {
            throw FlowFailure(key: "verify without token")
        }

        let topUp = TopUpRequest(amount: Self.amount, productCode: Self.productCode, recipientPhone: Self.recipientPhone, verificationToken: token)
        let topUpBody = Array(try encoder.encode(topUp))
        let (topUpResponse, topUpTime) = try call("topup", expect: 200) { try connection.post("/user/topup", json: topUpBody, token: user.sessionToken) }
        guard let result = try? topUpResponse.decode(TopUpResponse.self, with: decoder) else { throw FlowFailure(key: "topup undecodable") }
        guard result.success else { throw FlowFailure(key: "topup 200 success=false \(result.code ?? "")") }
        return FlowTimings(options: optionsTime, verify: verifyTime, topUp: topUpTime, flow: start.duration(to: .now))
    }

    /// Times one request; a transport error or an unexpected status becomes a `FlowFailure`.
    private func call(_ name: String, expect status: Int, _ send: () throws -> BenchResponse) throws -> (BenchResponse, Duration) {
        let start = ContinuousClock.now
        let response: BenchResponse
        do {
            response = try send()
        } catch {
            throw FlowFailure(key: "\(name) transport \(String(describing: error).prefix(60))")
        }
        let elapsed = start.duration(to: .now)
        guard response.status == status else {
            throw FlowFailure(key: "\(name) \(response.status) \(response.errorCode ?? "")")
        }
        return (response, elapsed)
    }
}
