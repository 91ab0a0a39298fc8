import CountersignAPI
import CountersignClient
import CountersignCore

/// The terminal's views of a transfer: each controller's screen printed as it changes, with the
/// spinner while the server works (the payment details and verdict pages).
struct TransferScreens {
    let spinner: Spinner

    /// Prints every screen of `flow` from now on.
    func attach(to flow: TransferFlow) {
        let spinner = spinner
        flow.initiate.screen.onChange { Self.show($0, spinner) }
        flow.details.screen.onChange { Self.show($0, spinner) }
        flow.verdict.screen.onChange { Self.show($0, spinner) }
        flow.finalize.screen.onChange { state in
            switch state {
            case .idle, .refreshing: break
            case .dashboard(let wallet): DashboardView.show(wallet)
            case .dashboardWithoutWallet(let error):
                print("── Dashboard ── (balance unavailable: \(Formatting.error(error)))")
            }
        }
    }

    /// One line saying how the transfer ended, for the command's last word and the demo's table.
    static func summary(_ outcome: TransferFlow.Outcome) -> String {
        switch outcome {
        case .initiate(.invalid(let field)): "not sent: check \(field.rawValue)"
        case .initiate(.refused(let code, let message)): "refused (\(code)): \(message)"
        case .initiate(.ended(let document)):
            "\(document.status.rawValue)\(document.error.map { " (\($0.code)): \($0.message)" } ?? "")"
        case .initiate: "stopped before a quote; its status is unknown"
        case .details(.declined(let document)): "DECLINED: the fees were refused (\(document.id)); nothing moved"
        case .details(.invalidQuote(let id)): "CANCELLED: the quote of \(id) did not add up"
        case .details(.declineFailed(let id, let error)): "decline of \(id) not recorded: \(Formatting.error(error))"
        case .details: "stopped at the fee quote"
        case .verdict(.succeeded(let document)): receipt(document)
        case .verdict(.failed(let id, let reason)): "FAILED (\(reason.code)): \(reason.message) [\(id)]"
        case .verdict(.expired(let id)): "EXPIRED: the quote lapsed [\(id)]"
        case .verdict(.abandoned(let id, let error)): "CANCELLED: local authentication \(error) [\(id)]"
        case .verdict(.securityError(let id, let error)): "CANCELLED: the device refused to sign (\(error)) [\(id)]"
        case .verdict(.locked(let id, let retry)):
            "LOCKED: too many failed authorizations\(retry.map { ", retry in \($0) s" } ?? "") [\(id)]"
        case .verdict(.ended(let document)): "\(document.status.rawValue) [\(document.id)]"
        case .verdict(.statusUnknown(let id)): "status unknown: check transfer \(id) later"
        case .verdict: "stopped during authorization"
        }
    }

    /// A finished transfer's receipt line: reference, amount, the payee by name and number, the
    /// total with fees, the time and the note.
    static func receipt(_ document: TransferDocument) -> String {
        let payee = document.payeeName.map { "\($0) (\(document.payeePhone))" } ?? document.payeePhone
        let total = document.quote.map { ", \(Formatting.money($0.total, $0.currency)) with fees" } ?? ""
        let note = document.note.map { ", note \"\($0)\"" } ?? ""
        return "SUCCESS: \(document.id) sent \(Formatting.money(document.amount, document.currency)) to \(payee)"
            + "\(total) at \(Formatting.time(document.updatedAt))\(note)"
    }

    private static func show(_ state: PaymentInitiateController.State, _ spinner: Spinner) {
        switch state {
        case .editing: break
        case .creating: spinner.start("Creating the transfer")
        case .waiting(let document):
            spinner.start(document.status == .pendingPayeeLookup ? "Looking up the payee" : "Getting the fee quote")
        case .quoteReady: spinner.stop()
        case .invalid, .refused, .ended, .statusUnknown: spinner.stop()
        }
    }

    private static func show(_ state: PaymentDetailsController.State, _ spinner: Spinner) {
        switch state {
        case .idle: break
        case .reviewing(let quote, let payeeName): printDetails(quote, payeeName: payeeName)
        case .declining: spinner.start("Declining the transfer")
        case .invalidQuote, .declined, .declineFailed: spinner.stop()
        }
    }

    private static func show(_ state: PaymentVerdictController.State, _ spinner: Spinner) {
        switch state {
        case .idle: break
        case .authenticating: print("── Payment verdict ──\n  Local authentication…")
        case .signing: print("  Signing the quote's challenge with the device key")
        case .authorizing: spinner.start("Waiting for the server's verdict")
        default:
            spinner.stop()
            print("  Verdict: \(summary(.verdict(state)))")
        }
    }

    private static func printDetails(_ quote: TransferQuote, payeeName: String?) {
        let money = { (minor: Int64) in Formatting.money(minor, quote.currency) }
        print("── Payment details ──")
        print("  To          \(quote.payeePhone)\(payeeName.map { " (\($0))" } ?? "")")
        print("  Amount      \(money(quote.amount))")
        for fee in quote.fees { print("    \(fee.name): \(money(fee.amount))") }
        print("  Total fees  \(money(quote.totalFees))")
        print("  Total       \(money(quote.total))")
        print("  Expires at  \(Formatting.time(quote.expiresAt))")
    }
}
