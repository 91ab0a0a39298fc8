import CountersignAPI
import CountersignCore

extension MarketplaceService {
    /// Totals for the buyer's accepted bid with the chosen delivery, address and payment method.
    /// Only the server computes them; the client shows what it gets.
    package func totals(buyerId: String, _ request: CheckoutTotalsRequest) async throws -> CheckoutTotals {
        try await checkout(buyerId: buyerId, request).totals
    }

    /// The buyer's accepted bid, its product and the totals for the choices in `request`.
    func checkout(buyerId: String, _ request: CheckoutTotalsRequest) async throws -> (
        bid: Bid, product: Product, totals: CheckoutTotals
    ) {
        let (bid, product) = try await buyersBid(buyerId: buyerId, id: request.bidId)
        guard bid.status == .accepted else {
            throw APIError(.bidNotAccepted, "Only an accepted bid can be paid (this one is \(bid.status.rawValue)).")
        }
        let delivery: CheckoutTotals.Delivery
        if request.delivery == "pickup" {
            guard product.pickup else { throw APIError(.deliveryUnavailable, "This product cannot be picked up.") }
            delivery = .pickup
        } else {
            guard product.shippingMethods.contains(request.delivery) else {
                throw APIError(.deliveryUnavailable, "This product does not ship with \(request.delivery).")
            }
            guard let addressId = request.addressId else {
                throw APIError(.addressRequired, "Choose a shipping address, or pickup.")
            }
            let addresses = try await database.read { sql in try await sql.marketplace.addresses(userId: buyerId) }
            guard let address = addresses.first(where: { $0.id == addressId }) else {
                throw APIError(.addressNotFound, "No such address.")
            }
            delivery = .shipping(methodId: request.delivery, to: address.country)
        }
        do {
            let totals = try CheckoutTotals(
                subtotal: bid.amount, delivery: delivery, from: product.shipFrom, method: request.paymentMethod,
                rates: rates)
            return (bid, product, totals)
        } catch .noRouteTo(let country) {
            throw APIError(.noRoute, "\(request.delivery) does not ship to \(country).")
        } catch {
            throw APIError(.totalsUnavailable, "Totals cannot be computed for these choices.")
        }
    }
}
