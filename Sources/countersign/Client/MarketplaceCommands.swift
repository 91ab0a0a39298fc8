import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore

/// `countersign sell`: list a product for sale (client).
struct Sell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a product for sale (client).")

    @OptionGroup var client: ClientOptions

    @Option(help: "What it is.") var title: String
    @Option(help: "The asking price in euros, e.g. 100 or 99.95.") var price: AmountArgument
    @Option(name: .customLong("ship-from"), help: "The country it ships from (ISO code; default NL).") var shipFrom =
        "NL"
    @Option(
        help:
            "Shipping methods offered, comma-separated (e.g. postnl_standard,postnl_registered); none for pickup only.")
    var shipping: String = ""
    @Flag(name: .customLong("no-pickup"), help: "Do not offer pickup.") var noPickup = false

    func validate() throws { _ = try price.marketplaceMinor(flag: "--price") }

    func run() async throws {
        let (_, _, api) = try client.loggedIn()
        let methods = shipping.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        let product = try await Marketplace.call {
            try await api.createProduct(
                CreateProductRequest(
                    title: title, askingPrice: try price.marketplaceMinor(flag: "--price"),
                    shipFromCountry: shipFrom, pickup: !noPickup,
                    shippingMethods: methods))
        }
        print(
            "Listed \(product.id): \(product.title) for \(Formatting.money(product.askingPrice, product.currency)); delivery: \(product.deliveryMethods.map(\.name).joined(separator: ", "))"
        )
    }
}

/// `countersign bid show|accept|decline BID`: a seller's side of an offer (client).
struct BidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bid", abstract: "Show, accept or decline a bid (client).",
        subcommands: [Show.self, Accept.self, Decline.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A bid, for its buyer or the product's seller.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The bid id.") var bid: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let found = try await Marketplace.call { try await api.bid(id: bid) }
            let reason = found.closedReason.map { " (\(Marketplace.closedText($0)))" } ?? ""
            print(
                "\(found.id): \(Formatting.money(found.amount, found.currency)) on \(found.productId), \(found.status.rawValue)\(reason)\(found.buyNow ? " (buy now)" : "")"
            )
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept an offer on your product: the buyer can then pay it.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The bid id.") var bid: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let accepted = try await Marketplace.call { try await api.acceptBid(id: bid) }
            print(
                "Accepted \(accepted.id): \(Formatting.money(accepted.amount, accepted.currency)); the product is held for the buyer's payment."
            )
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decline an offer on your product: the buyer sees that you said no.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The bid id.") var bid: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let declined = try await Marketplace.call { try await api.declineBid(id: bid) }
            print("Declined \(declined.id): \(Formatting.money(declined.amount, declined.currency)).")
        }
    }
}

/// `countersign order show|ship|complete|refund ORDER` and `countersign order proceeds` (client).
struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "An order after payment: ship it (seller), confirm receipt (buyer), refund, proceeds (client).",
        subcommands: [Show.self, Ship.self, Complete.self, Refund.self, Proceeds.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An order, for its buyer or seller.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The order id.") var order: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            Marketplace.print(try await Marketplace.call { try await api.order(id: order) })
        }
    }

    struct Ship: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a paid order shipped (or handed over, for pickup).")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The order id.") var order: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            Marketplace.print(try await Marketplace.call { try await api.shipOrder(id: order) })
        }
    }

    struct Complete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm you received a shipped order; the seller is paid from escrow.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The order id.") var order: String

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            Marketplace.print(try await Marketplace.call { try await api.completeOrder(id: order) })
        }
    }

    struct Refund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give back (part of) a paid order you sold, before the buyer confirms receipt.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "The order id.") var order: String
        @Option(help: "How much, in euros, e.g. 12.50.") var amount: AmountArgument
        @Option(help: "Why, shown to the buyer.") var reason: String

        func validate() throws { _ = try amount.marketplaceMinor(flag: "--amount") }

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let refund = try await Marketplace.call {
                try await api.refundOrder(
                    id: order,
                    CreateRefundRequest(amount: try amount.marketplaceMinor(flag: "--amount"), reason: reason))
            }
            Swift.print("Refund \(refund.id): \(Marketplace.refundLine(refund))")
        }
    }

    struct Proceeds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What the marketplace holds for you (paid, not yet received) and owes you.")
        @OptionGroup var client: ClientOptions

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let proceeds = try await Marketplace.call { try await api.proceeds() }
            print("Held in escrow  \(Formatting.money(proceeds.held, proceeds.currency))")
            print("Payable to you  \(Formatting.money(proceeds.payable, proceeds.currency))")
        }
    }
}

/// What the marketplace commands share.
enum Marketplace {
    /// Runs a call, turning a refusal into the command's message (exit 1).
    static func call<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure(Formatting.error(error))
        }
    }

    static func print(_ order: OrderResponse) {
        Swift.print(
            "\(order.id): \(order.status.rawValue), \(Formatting.money(order.totals.total, order.totals.currency)) by \(TerminalCheckout.label(order.paymentMethod)), delivery \(order.delivery)"
        )
        // Once paid, the other side: where to send it, or how to reach each other for a pickup.
        let other = order.role == .seller ? ("Buyer", order.buyer) : ("Seller", order.seller)
        if let party = other.1 {
            Swift.print("\(other.0): \(party.name)\(party.phone.map { ", \($0)" } ?? "")")
        }
        if let address = order.shippingAddress {
            Swift.print(
                "Ship to: \(address.name), \(address.line1), \(address.postalCode) \(address.city), \(address.country)")
        }
        for refund in order.refunds ?? [] { Swift.print("Refund: \(refundLine(refund))") }
    }

    /// A refund in a line: how much, where it stands, why, and when.
    static func refundLine(_ refund: RefundResponse) -> String {
        let status =
            switch refund.status {
            case .pending: "pending with the payment provider"
            case .succeeded: "returned to the buyer"
            case .failed: "failed: \(refund.failureMessage ?? "the payment provider could not return it")"
            }
        return "\(Formatting.money(refund.amount, refund.currency)) \(status), by the \(refund.requestedBy) "
            + "(\(refund.reason)), \(refund.createdAt)"
    }

    /// Why a bid ended, in words.
    static func closedText(_ reason: BidClosedReason) -> String {
        switch reason {
        case .withdrawn: "withdrawn by the buyer"
        case .declined: "declined by the seller"
        case .sold: "the product sold to another buyer"
        case .expired: "expired"
        }
    }
}
