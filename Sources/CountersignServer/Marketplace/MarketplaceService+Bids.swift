import CountersignAPI
import CountersignCore
import CountersignStore

extension MarketplaceService {
    /// A bid of `amount` on someone else's product; `NEW` until the seller accepts it.
    package func bid(buyerId: String, productId: String, amount: Int64) async throws -> BidResponse {
        guard (1...Self.maximumAmount).contains(amount) else {
            throw APIError(
                .invalidAmount,
                "amount must be between 1 and \(Self.maximumAmount) minor units (at most \(largestShown)).")
        }
        return try await place(buyerId: buyerId, productId: productId, amount: amount, buyNow: false)
    }

    /// Buy-now: a bid at the asking price, accepted at once; 409 if another bid holds the product.
    package func buyNow(buyerId: String, productId: String) async throws -> BidResponse {
        try await place(buyerId: buyerId, productId: productId, amount: nil, buyNow: true)
    }

    private func place(buyerId: String, productId: String, amount: Int64?, buyNow: Bool) async throws -> BidResponse {
        let now = clock.nowMillis()
        let (product, sold) = try await database.read { sql in
            (
                try await sql.marketplace.product(id: productId),
                try await sql.marketplace.isSold(productId: productId)
            )
        }
        guard productId.utf8.count <= 64, let product else { throw APIError(.productNotFound, "No such product.") }
        guard product.sellerId != buyerId else { throw APIError(.ownProduct, "You cannot bid on your own product.") }
        guard !sold else { throw Self.productSold }
        let bid = Bid(
            id: Identifier.make("bid"), productId: productId, buyerId: buyerId, amount: amount ?? product.askingPrice,
            currency: product.currency,
            status: buyNow ? .accepted : .new, buyNow: buyNow, createdAt: now, updatedAt: now
        )
        let placed = try await holdingProduct {
            try await database.transaction { [lock = database.forUpdate] sql in
                try await sql.marketplace.lock(productId: productId, lock)
                return try await sql.marketplace.insert(bid)
            }
        }
        guard placed else { throw buyNow ? Self.productUnavailable : Self.productSold }
        return response(bid)
    }

    /// The bid, for its buyer or the product's seller; 404 for anyone else.
    package func bid(userId: String, id: String) async throws -> BidResponse {
        response(try await visibleBid(userId: userId, id: id).bid)
    }

    /// The seller accepts a `NEW` bid; 409 if another bid holds the product.
    package func accept(sellerId: String, bidId: String) async throws -> BidResponse {
        let (bid, product) = try await visibleBid(userId: sellerId, id: bidId)
        guard product.sellerId == sellerId else { throw APIError(.notSeller, "Only the seller can accept a bid.") }
        return try await move(bid, to: .accepted)
    }

    /// The seller declines a `NEW` bid: it ends, and its bidder sees that the seller said no.
    package func decline(sellerId: String, bidId: String) async throws -> BidResponse {
        let (bid, product) = try await visibleBid(userId: sellerId, id: bidId)
        guard product.sellerId == sellerId else { throw APIError(.notSeller, "Only the seller can decline a bid.") }
        guard bid.status == .new else {
            throw APIError(.invalidState, "The bid is \(bid.status.rawValue); only a new bid can be declined.")
        }
        return try await move(bid, to: .canceled, reason: .declined)
    }

    /// The buyer withdraws a `NEW` or `ACCEPTED` bid (an abandoned buy-now): the product can be bid on again.
    package func withdraw(buyerId: String, bidId: String) async throws -> BidResponse {
        let (bid, _) = try await visibleBid(userId: buyerId, id: bidId)
        guard bid.buyerId == buyerId else { throw APIError(.notBuyer, "Only the buyer can withdraw a bid.") }
        try await abandonPayment(bidId: bid.id)
        return try await move(bid, to: .canceled, reason: .withdrawn)
    }

    private func move(_ bid: Bid, to status: BidStatus, reason: BidClosedReason? = nil) async throws -> BidResponse {
        guard bid.status.canMove(to: status) else {
            throw APIError(.invalidState, "The bid is \(bid.status.rawValue); that does not apply.")
        }
        let now = clock.nowMillis()
        let moved = try await holdingProduct {
            try await database.transaction { sql in
                // Withdrawing cancels the bid's order with it, unless a payment is under way.
                if status == .canceled, let order = try await sql.orders.find(bidId: bid.id) {
                    if order.status == .paymentPending { throw Self.paymentInProgress }
                    if order.status == .new {
                        guard try await sql.orders.move(orderId: order.id, from: .new, to: .canceled, now: now)
                        else { return false }
                    }
                }
                return try await sql.marketplace.move(
                    bidId: bid.id, from: bid.status, to: status, reason: reason, now: now)
            }
        }
        guard moved else {
            if status == .accepted { throw Self.productUnavailable }
            throw APIError(.invalidState, "The bid changed meanwhile; read it again.")
        }
        return response(try bid.moved(to: status, reason: reason, now: now))
    }

    /// The bid and its product, if `userId` is its buyer or the seller.
    func visibleBid(userId: String, id: String) async throws -> (bid: Bid, product: Product) {
        let found = try await database.read { sql -> (Bid, Product)? in
            guard id.utf8.count <= 64, let bid = try await sql.marketplace.bid(id: id),
                let product = try await sql.marketplace.product(id: bid.productId)
            else { return nil }
            return (bid, product)
        }
        guard let found, found.0.buyerId == userId || found.1.sellerId == userId else {
            throw APIError(.bidNotFound, "No such bid.")
        }
        return found
    }

    /// The bid and its product, if `buyerId` is its buyer: to anyone else, the seller included, it does not exist.
    func buyersBid(buyerId: String, id: String) async throws -> (bid: Bid, product: Product) {
        let found = try await visibleBid(userId: buyerId, id: id)
        guard found.bid.buyerId == buyerId else { throw APIError(.bidNotFound, "No such bid.") }
        return found
    }

    /// Runs a write that may trip the one-holding-bid-per-product index (two concurrent buy-nows on
    /// PostgreSQL both pass the NOT EXISTS guard; the index lets one commit): that is a 409, not a 500.
    private func holdingProduct(_ write: () async throws -> Bool) async throws -> Bool {
        do {
            return try await write()
        } catch DatabaseError.constraintViolation {
            return false
        }
    }

    static let productUnavailable = APIError(.productUnavailable, "Another bid holds this product, or it is sold.")
    static let productSold = APIError(.productSold, "This product is sold; it takes no more bids.")

    func response(_ bid: Bid) -> BidResponse {
        let lifetime: Int64? =
            switch bid.status {
            case .new: timeouts.bidSeconds
            case .accepted: bid.buyNow ? timeouts.buyNowSeconds : timeouts.acceptedSeconds
            case .canceled, .expired, .completed: nil
            }
        return BidResponse(
            id: bid.id, productId: bid.productId, buyerId: bid.buyerId, amount: bid.amount, currency: bid.currency,
            status: bid.status, buyNow: bid.buyNow,
            expiresAt: lifetime.map { WallClock.iso8601(millis: bid.updatedAt + $0 * 1000) },
            closedReason: Self.closedReason(bid), orderId: bid.orderId
        )
    }

    /// Why the bid ended: as recorded, or for one that ended before reasons were kept, what its status says.
    static func closedReason(_ bid: Bid) -> BidClosedReason? {
        switch bid.status {
        case .new, .accepted, .completed: nil
        case .canceled: bid.closedReason ?? .withdrawn
        case .expired: .expired
        }
    }
}
