import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// `countersign buy` against a `countersign serve` process with the payment simulator: the exit
/// status says paid (0), failed or given up (1), or pending (2), and the server agrees.
@Suite("countersign buy")
struct BuyCommandTests {
    /// The buy-now bid a run of `buy` placed, from its first line.
    func declinedBid(_ output: String) -> String {
        output.firstMatch(of: /bid (bid_[A-Za-z0-9_-]+)/).map { String($0.1) } ?? "no bid in the output"
    }

    @Test(
        "card with 3-D Secure, a declined card, an abandoned buy-now withdrawn, a pending one resumed, an offer paid once accepted",
        arguments: TestEngines.all)
    func buy(engine: DatabaseEngine) async throws {
        try await ServeProcess.with(engine, extra: ["--return-origin", "https://app.countersign.invalid"]) {
            server, _ in
            let api = server.client
            let buyerPhone = TestPhones.next()
            let buyer = try await api.post(
                "/auth/signup", try await api.signupBody(phone: buyerPhone, name: "Buyer", pin: "4827")
            )
            .decode(SessionResponse.self)
            let address = try await api.post(
                "/user/addresses",
                AddressBody(name: "B", line1: "Dam 1", city: "Amsterdam", postalCode: "1012", country: "NL"),
                token: buyer.sessionToken)
            try #require(address.status == 201)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "countersign-buy-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let run = { (arguments: [String]) in
                try await CommandLineTests.run(
                    arguments,
                    environment: [
                        "COUNTERSIGN_SERVER": api.baseURL, "COUNTERSIGN_PROFILE": root + "/buyer", "DATABASE_URL": "",
                    ])
            }
            let asSeller = { (arguments: [String]) in try await run(arguments + ["--profile", root + "/seller"]) }
            #expect(
                try await asSeller([
                    "signup", "--phone", TestPhones.next(), "--name", "Seller", "--pin", "4827",
                    "--code-from-simulator",
                ]).status == 0)
            var products: [String] = []
            for title in ["Chair", "Table", "Lamp", "Rug", "Desk"] {
                let listed = try await asSeller([
                    "sell", "--title", title, "--price", "100", "--shipping", "postnl_standard",
                ])
                products.append(
                    try #require(
                        listed.output.firstMatch(of: /Listed (prd_[A-Za-z0-9_-]+)/).map { String($0.1) },
                        "\(listed.output)"))
            }
            let refusedListing = try await asSeller(["sell", "--title", "Nothing", "--price", "0"])
            #expect(
                refusedListing.status != 0 && refusedListing.output.contains("--price: \"0\" is not more than zero"),
                "\(refusedListing.output)")
            let centsTooFine = try await asSeller(["sell", "--title", "Nothing", "--price", "99.999"])
            #expect(centsTooFine.status != 0 && centsTooFine.output.contains("type at most 2 after the dot"))
            let tooDear = try await asSeller(["sell", "--title", "Nothing", "--price", "10000000.01"])
            #expect(
                tooDear.status != 0 && tooDear.output.contains("€10,000,000.00") && !tooDear.output.contains("minor"),
                "\(tooDear.output)")
            #expect(
                try await run(["login", "--phone", buyerPhone, "--pin", "4827", "--code-from-simulator"]).status == 0)
            let fast = ["--poll-seconds", "0"]

            let card = try await run(
                [
                    "buy", products[0], "--delivery", "postnl_standard", "--method", "card", "--card-number",
                    "4000 0027 6000 3184", "--redirect", "authorize", "--yes",
                ] + fast)
            #expect(card.status == 0, "\(card.output)")
            #expect(
                card.output.contains("Total                        €110.05")
                    && card.output.contains("Saved card Visa •••• 3184")
                    && card.output.contains("Order confirmed"), "\(card.output)")
            #expect(
                try await asSeller(["order", "proceeds"]).output.contains("Held in escrow  €106.95"),
                "the seller's escrow holds the item and the shipping")
            let cardOrder = try #require(card.output.firstMatch(of: /Order (ord_[A-Za-z0-9_-]+)/).map { String($0.1) })
            let shown = try await asSeller(["order", "show", cardOrder]).output
            #expect(
                shown.contains("Buyer: Buyer") && shown.contains("Ship to: B, Dam 1, 1012 Amsterdam, NL"),
                "the seller sees where to send it: \(shown)")
            #expect(try await run(["order", "show", cardOrder]).output.contains("Seller: Seller"))
            // The seller gives the shipping back; the buyer sees it on the order.
            let refund = try await asSeller(["order", "refund", cardOrder, "--amount", "6.95", "--reason", "Sent late"])
            #expect(
                refund.status == 0 && refund.output.contains("€6.95 returned to the buyer, by the seller (Sent late)"),
                "\(refund.output)")
            let overRefund = try await asSeller(["order", "refund", cardOrder, "--amount", "100.01", "--reason", "All"])
            #expect(overRefund.status != 0 && overRefund.output.contains("€100.00"), "\(overRefund.output)")
            #expect(try await run(["order", "show", cardOrder]).output.contains("Refund: €6.95 returned to the buyer"))
            #expect(
                try await run(["order", "ship", cardOrder]).output.contains("not_seller"), "the buyer does not ship")
            #expect(try await asSeller(["order", "ship", cardOrder]).output.contains("SHIPPED"))
            #expect(try await run(["order", "complete", cardOrder]).output.contains("COMPLETED"))
            let proceeds = try await asSeller(["order", "proceeds"]).output
            #expect(
                proceeds.contains("Held in escrow  €0.00") && proceeds.contains("Payable to you  €100.00"),
                "\(proceeds)")

            let declined = try await run(
                ["buy", products[1], "--method", "card", "--card-number", "4000000000000002", "--yes"] + fast)
            #expect(declined.status == 1 && declined.output.contains("card_declined"), "\(declined.output)")

            let abandoned = try await run(
                ["buy", products[2], "--method", "ideal", "--redirect", "abandon", "--yes", "--withdraw-if-abandoned"]
                    + fast)
            #expect(abandoned.status == 1 && abandoned.output.contains("Buy-now withdrawn"), "\(abandoned.output)")
            #expect(
                try await api.get("/products/\(products[2])", token: buyer.sessionToken).decode(ProductResponse.self)
                    .available, "biddable again")

            let left = try await run(
                ["buy", products[3], "--method", "bancontact", "--redirect", "abandon", "--yes", "--keep-if-abandoned"]
                    + fast)
            #expect(left.status == 2, "\(left.output)")
            let bidId = try #require(left.output.firstMatch(of: /bid (bid_[A-Za-z0-9_-]+)/)?.1).description
            let resumed = try await run(
                ["buy", products[3], "--bid-id", bidId, "--redirect", "authorize", "--yes"] + fast)
            #expect(
                resumed.status == 0 && resumed.output.contains("under way"),
                "Pay resumes the same payment: \(resumed.output)")
            let order = try await api.get("/bids/\(bidId)/order", token: buyer.sessionToken).decode(OrderResponse.self)
            #expect(order.status == .paid && order.paymentMethod == .bancontact)

            // Left waiting again, then canceled from the terminal and paid another way.
            let switching = try await run(
                [
                    "buy", products[1], "--bid-id", declinedBid(declined.output), "--method", "ideal", "--redirect",
                    "abandon", "--yes", "--keep-if-abandoned",
                ] + fast)
            #expect(switching.status == 2, "\(switching.output)")
            let switched = try await run(
                [
                    "buy", products[1], "--bid-id", declinedBid(declined.output), "--cancel-pending", "--method",
                    "bancontact", "--redirect", "authorize", "--yes",
                ] + fast)
            #expect(switched.status == 0 && switched.output.contains("was canceled"), "\(switched.output)")
            let switchedOrder = try await api.get(
                "/bids/\(declinedBid(declined.output))/order", token: buyer.sessionToken
            ).decode(OrderResponse.self)
            #expect(switchedOrder.status == .paid && switchedOrder.paymentMethod == .bancontact)

            let bidsBefore = try await api.get("/user/bids", token: buyer.sessionToken).decode(BidList.self).bids
            let tooMuch = try await run(["buy", products[4], "--bid", "400"])
            #expect(
                tooMuch.status == 1 && tooMuch.output.contains("not below the asking price of €100.00")
                    && tooMuch.output.contains("No offer placed"), "\(tooMuch.output)")
            #expect(
                try await api.get("/user/bids", token: buyer.sessionToken).decode(BidList.self).bids == bidsBefore,
                "no offer placed")
            let offer = try await run(["buy", products[4], "--bid", "80"])
            #expect(offer.status == 0 && offer.output.contains("waits for the seller"), "\(offer.output)")
            let offerId = try #require(offer.output.firstMatch(of: /Offer (bid_[A-Za-z0-9_-]+)/)?.1).description
            let early = try await run(
                ["buy", products[4], "--bid-id", offerId, "--method", "ideal", "--redirect", "authorize", "--yes"]
                    + fast)
            #expect(early.status == 1 && early.output.contains("only an accepted bid"), "\(early.output)")
            #expect(
                try await run(["bid", "accept", offerId]).output.contains("not_seller"),
                "the buyer does not accept their own offer")
            #expect(try await asSeller(["bid", "accept", offerId]).output.contains("Accepted"))
            // With a return URL the simulator's page answers 303 to it; the terminal must not follow that
            // (an app's URL, unreachable from here) but read the outcome from the server.
            let paid = try await run(
                [
                    "buy", products[4], "--bid-id", offerId, "--method", "ideal", "--delivery", "pickup", "--redirect",
                    "authorize", "--yes",
                    "--return-url", "https://app.countersign.invalid/return",
                ] + fast)
            #expect(paid.status == 0 && paid.output.contains("€81.99"), "€80 + iDEAL €1.99: \(paid.output)")
            #expect(
                paid.output.contains("pressed \"authorize\" on the simulator's page: HTTP 303"),
                "the page's redirect is not followed: \(paid.output)")

            let noTerminal = try await run(["buy", products[2]])
            #expect(
                noTerminal.status != 0 && noTerminal.output.contains("pass --method"),
                "without a terminal, a prompt names its flag: \(noTerminal.output)")
            #expect(
                try await api.get("/products/\(products[2])", token: buyer.sessionToken).decode(ProductResponse.self)
                    .available, "and nothing was held")

            // The same card number again: the saved card is used, not saved a second time.
            let stool = try await asSeller([
                "sell", "--title", "Stool", "--price", "100", "--shipping", "postnl_standard",
            ])
            let stoolId = try #require(stool.output.firstMatch(of: /Listed (prd_[A-Za-z0-9_-]+)/)?.1).description
            let again = try await run(
                [
                    "buy", stoolId, "--delivery", "pickup", "--method", "card", "--card-number", "4000002760003184",
                    "--redirect", "authorize", "--yes",
                ] + fast)
            #expect(
                again.status == 0 && again.output.contains("Using your saved card Visa •••• 3184"),
                "\(again.output)")
            let cards = try await api.get("/payment-methods/cards", token: buyer.sessionToken).decode(
                SavedCardList.self)
            #expect(cards.cards.map(\.last4).sorted() == ["0002", "3184"], "one saved card per card: \(cards)")
        }
    }
}
