import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// Wallet fundings with the Stripe provider pointed at the fake Stripe: a saved card, and iDEAL
/// settled by a Stripe-signed webhook, credited once whatever is replayed.
@Suite("Wallet fundings with Stripe")
struct StripeFundingTests {
    @Test("a card funding and an iDEAL one settled by Stripe's webhook each credit the wallet once")
    func fundings() async throws {
        try await StripeCheckoutTests.run(.sqlite) { server, fake in
            let user = try await server.signup()
            let card = try await OrderPaymentTests.card(server, user, "4242 4242 4242 4242")
            let byCard = try await WalletFundingTests.create(
                server, user,
                CreateFundingRequest(
                    amount: 4_000, currency: "EUR", method: .card, paymentMethodId: card,
                    returnURL: "https://app.example/add-money")
            ).decode(WalletFunding.self)
            #expect(byCard.status == "succeeded" && byCard.balance == 4_000)

            let byBank = try await WalletFundingTests.create(
                server, user,
                CreateFundingRequest(
                    amount: 1_500, currency: "EUR", method: .ideal, returnURL: "https://app.example/add-money")
            ).decode(WalletFunding.self)
            #expect(byBank.status == "pending" && byBank.redirectURL != nil)
            let intent = try #require(fake.intents.first { $0.metadata["order_id"] == byBank.fundingId })
            #expect(intent.amount == 1_500 && intent.currency == "eur")
            try fake.completeRedirect(intent.id)
            let succeeded = try fake.event("payment_intent.succeeded", intentId: intent.id)
            #expect(try await StripeCheckoutTests.webhook(server, succeeded).status == 200)
            #expect(try await StripeCheckoutTests.webhook(server, succeeded).status == 200)
            #expect(try await server.wallet(user).wallet("EUR")?.balance == 5_500)
            #expect(try await WalletFundingTests.ledgerEntries(server, byBank.fundingId) == 1)
        }
    }
}
