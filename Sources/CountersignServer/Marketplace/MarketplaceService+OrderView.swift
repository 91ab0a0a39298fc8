import CountersignAPI
import CountersignCore
import CountersignStore

extension MarketplaceService {
    /// The order as `userId`, its buyer or its seller, sees it. Only once it is paid do the two
    /// sides learn about each other: both names, the shipping address for the seller to send it
    /// to, and for a pickup both phone numbers, to agree where and when. Before that an order
    /// names nobody, so a bid or an unpaid checkout reveals no one's address or number.
    func view(_ order: Order, for userId: String, on sql: any SQLExecutor) async throws -> OrderResponse {
        var view = OrderResponse(
            id: order.id, bidId: order.bidId, productId: order.productId, status: order.status,
            delivery: order.delivery, addressId: order.addressId, paymentMethod: order.paymentMethod,
            totals: order.totals, role: order.sellerId == userId ? .seller : .buyer,
            createdAt: WallClock.iso8601(millis: order.createdAt), updatedAt: WallClock.iso8601(millis: order.updatedAt)
        )
        guard order.status.isPaid else { return view }
        view.refunded = order.refunded
        view.refundable = order.totals.subtotal + order.totals.shipping - order.refunded
        view.refunds = try await sql.orderRefunds.list(orderId: order.id).map(Self.wire)
        let pickup = order.delivery == "pickup"
        if let buyer = try await sql.users.find(id: order.buyerId) {
            view.buyer = OrderParty(name: buyer.name, phone: pickup ? buyer.phone : nil)
        }
        if let seller = try await sql.users.find(id: order.sellerId) {
            view.seller = OrderParty(name: seller.name, phone: pickup ? seller.phone : nil)
        }
        if !pickup, let addressId = order.addressId {
            view.shippingAddress = try await sql.marketplace.addresses(userId: order.buyerId)
                .first { $0.id == addressId }.map(Self.body)
        }
        return view
    }
}
