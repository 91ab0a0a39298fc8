import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore

/// `countersign buy PRODUCT [--bid AMOUNT]`: the marketplace's payment screen. Without `--bid`, buy now;
/// with it, an offer the seller must accept first (then `--bid-id` pays it). Exit 0 when the order
/// is paid, 2 when the payment may still complete, 1 otherwise.
struct Buy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Buy a product: buy now, or pay an accepted bid (client).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var auth: LocalAuthOptions

    @Argument(help: "The product id (prd_…).") var product: String
    @Option(help: "Offer this much, in euros (80 or 79.95), instead of buying now; the seller accepts it first.")
    var bid: AmountArgument?
    @Option(name: .customLong("bid-id"), help: "Pay this accepted bid of yours (after the seller accepted an offer).")
    var bidId: String?
    @Option(help: "pickup or a shipping method id (asked when not given).") var delivery: String?
    @Option(help: "The id of one of your addresses, for shipping.") var address: String?
    @Option(help: "card, ideal, bancontact or wallet (the wallet in the order's currency, by device key or PIN).")
    var method: PaymentMethodKind?
    @Option(help: "The account PIN, for --method wallet when the device key cannot sign (asked if not given).")
    var pin: String?
    @Option(help: "The id of a saved card (pm_…), for --method card.") var card: String?
    @Option(name: .customLong("card-number"), help: "Save this card (test numbers in docs/stripe.md) and pay with it.")
    var cardNumber: String?
    @Option(
        help:
            "At the provider's page: ask (print the link, wait for Enter), authorize or fail (press the built-in simulator's button), abandon."
    )
    var redirect: TerminalRedirectHandler.Mode = .ask
    @Option(
        name: .customLong("return-url"),
        help:
            "Where the provider's page sends the payer back (needed for every method with Stripe; the simulator shows a done page without one)."
    )
    var returnURL: String?
    @Option(name: .customLong("poll-seconds"), help: "Seconds between polls of a pending payment (default 2).")
    var pollSeconds: Int = 2
    @Flag(help: "Answer yes to \"Pay …?\".") var yes = false
    @Flag(
        name: .customLong("cancel-pending"),
        help: "Cancel a payment left waiting on the bid's order (nothing taken), then choose again.")
    var cancelPending = false
    @Flag(name: .customLong("withdraw-if-abandoned"), help: "After an abandoned buy-now payment, withdraw the bid.")
    var withdrawIfAbandoned = false
    @Flag(name: .customLong("keep-if-abandoned"), help: "After an abandoned buy-now payment, keep the bid (pay later).")
    var keepIfAbandoned = false

    func validate() throws {
        if bid != nil && bidId != nil { throw ValidationError("--bid and --bid-id cannot both be given") }
        if withdrawIfAbandoned && keepIfAbandoned {
            throw ValidationError("--withdraw-if-abandoned and --keep-if-abandoned cannot both be given")
        }
        _ = try offer()
        guard (0...60).contains(pollSeconds) else { throw ValidationError("--poll-seconds must be between 0 and 60") }
    }

    /// The offer in cents, when one is made.
    func offer() throws -> Int64? { try bid?.marketplaceMinor(flag: "--bid") }

    func run() async throws {
        let (profile, _, api) = try client.loggedIn()
        // A buy-now always needs a method: refuse before it holds the product. (An offer waits for the
        // seller first; a bid whose payment is under way keeps its method; the screen asks when it must.)
        if bidId == nil, bid == nil { try TerminalInput.require(method, flag: "--method", question: "Pay with") }
        let accepted: BidResponse
        do {
            if let bidId {
                accepted = try await api.bid(id: bidId)
            } else if let bid = try offer() {
                // An offer at or above the asking price is most likely a slip: buy now pays the asking price.
                let listed = try await api.product(id: product)
                if bid >= listed.askingPrice {
                    let (offered, asking) = (
                        Formatting.money(bid, listed.currency), Formatting.money(listed.askingPrice, listed.currency)
                    )
                    print("Your offer of \(offered) is not below the asking price of \(asking).")
                    print("Buy now (leave out --bid) pays the asking price at once.")
                    guard TerminalInput.confirm("Offer \(offered) anyway?", preset: yes ? true : nil) else {
                        throw CommandFailure("No offer placed.")
                    }
                }
                let offer = try await api.placeBid(productId: product, amount: bid)
                print(
                    "Offer \(offer.id) of \(Formatting.money(offer.amount, offer.currency)) placed: \(offer.status.rawValue)."
                )
                guard offer.status == .accepted else {
                    print("It waits for the seller. Once accepted: countersign buy \(product) --bid-id \(offer.id)")
                    return
                }
                accepted = offer
            } else {
                accepted = try await api.buyNow(productId: product)
                print(
                    "Buy now: bid \(accepted.id) at \(Formatting.money(accepted.amount, accepted.currency)) holds the product while you pay\(accepted.expiresAt.map { " (until \(Formatting.time($0)))" } ?? "")."
                )
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
        let answers = CheckoutAnswers(
            delivery: delivery, address: address, method: method, card: card, cardNumber: cardNumber,
            pay: yes ? true : nil,
            withdrawIfAbandoned: withdrawIfAbandoned ? true : (keepIfAbandoned ? false : nil),
            cancelPending: cancelPending
        )
        // A wallet payment signs with this device's key (local authentication first), else the PIN.
        let device = try? auth.make(profile: profile, devicePINFallback: false)
        let preset = pin
        let accountPIN: @Sendable (AirtimePayment.PINFallbackReason) async -> String? = { reason in
            print("  Device key did not finish (\(TerminalPayments.describe(reason))); using the account PIN")
            if let preset { return preset }
            if !TerminalInput.isInteractive { print("no terminal to ask for the account PIN; pass --pin") }
            return TerminalInput.secret("Account PIN")
        }
        let ending = await TerminalCheckout.run(
            api: api, bidId: accepted.id, productId: product, answers: answers,
            redirects: TerminalRedirectHandler(mode: redirect),
            returnURL: returnURL, timing: .init(pollInterval: .seconds(pollSeconds))
        ) { order in
            guard let device else { return await accountPIN(.noRegisteredCredential).map { PayOrderRequest(pin: $0) } }
            do {
                return try await WalletOrderPayment(
                    client: api, authenticator: device.authenticator, signer: device.signer
                ).authorization(for: order, pin: accountPIN)
            } catch let needed as AirtimePayment.PasskeyRequired {
                print("  Device key did not finish (\(TerminalPayments.describe(needed.reason)))")
                throw CountersignClientError.api(
                    status: 403, code: ErrorCode.strongAuthenticationRequired.rawValue,
                    message: "This payment needs your device key: the account PIN alone pays only small amounts, "
                        + "and only a few times between key payments. Nothing was paid. Approve it with the key "
                        + "(--biometric approve), or register one with `countersign device register`.",
                    retryAfter: nil, traceId: nil)
            }
        }
        if let device { LocalAuthOptions.recordSignCount(device.signer, in: profile) }
        switch ending {
        case .paid: return
        case .pending: throw ExitCode(2)
        case .failed, .withdrawn, .unavailable: throw ExitCode(1)
        }
    }
}

extension PaymentMethodKind: ExpressibleByArgument {}
extension TerminalRedirectHandler.Mode: ExpressibleByArgument {}
