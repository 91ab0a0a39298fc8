import AsyncHTTPClient
import CountersignAPI
import CountersignClient
import Foundation
import NIOCore

/// The payer's trip to a provider's page (3-D Secure, iDEAL, Bancontact), in a terminal: the link is
/// printed, and either the payer says when they are back, or — for scripts and the demo — the
/// command acts on the built-in payment simulator's page itself.
struct TerminalRedirectHandler: RedirectHandler {
    /// What happens at the provider's page.
    enum Mode: String, CaseIterable, Sendable {
        /// Print the link and wait for the payer to press Enter (or type `a` if they gave up).
        case ask
        /// Press "Authorize" on the simulator's page.
        case authorize
        /// Press "Fail" on the simulator's page.
        case fail
        /// Walk away: print the link and come back without finishing.
        case abandon
    }

    let mode: Mode

    func open(_ url: URL) async -> RedirectOutcome {
        print("  Pay at the provider's page: \(url.absoluteString)")
        switch mode {
        case .ask:
            guard TerminalInput.isInteractive else {
                print(
                    "  (no terminal to wait on: the payment waits; pass --redirect authorize|fail|abandon in scripts)")
                return .abandoned
            }
            print("  Press Enter when you are back (type a and Enter if you gave up): ", terminator: "")
            fflush(nil)
            guard let line = readLine() else { return .abandoned }
            return line.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("a") ? .abandoned : .returned
        case .abandon:
            print("  (walked away without finishing)")
            return .abandoned
        case .authorize, .fail:
            return await press(
                mode.rawValue, mode == .authorize ? .authorizeSimulatedPayment : .failSimulatedPayment, on: url)
        }
    }

    /// POSTs the simulator page's button; the server then knows the outcome and the poll reads it.
    /// Any other page cannot be followed from a terminal: the payer counts as not back.
    private func press(_ button: String, _ endpoint: Endpoint, on url: URL) async -> RedirectOutcome {
        // The page is `/sim/pay/{intentId}`: every segment but the id must be the template's.
        let page = Endpoint.simulatedPaymentPage.template.split(separator: "/")
        let segments = url.path.split(separator: "/")
        guard segments.count == page.count, zip(page.dropLast(), segments).allSatisfy({ $0 == $1 }),
            let intentId = segments.last,
            var target = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            print(
                "  --redirect \(button) follows only the built-in payment simulator's page; open the link in a browser")
            return .abandoned
        }
        target.percentEncodedPath = endpoint.path([String(intentId)])
        target.percentEncodedQuery = nil
        var request = HTTPClientRequest(url: target.string ?? url.absoluteString)
        request.method = .POST
        // The page answers with a redirect to the app's return URL, which is the app's to open, not
        // ours: the outcome is read from the server by the poll that follows.
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let outcome: RedirectOutcome
        do {
            let response = try await http.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            print("  (pressed \"\(button)\" on the simulator's page: HTTP \(response.status.code))")
            outcome = .returned
        } catch {
            print("  could not reach the simulator's page: \(error)")
            outcome = .abandoned
        }
        try? await http.shutdown()
        return outcome
    }
}
