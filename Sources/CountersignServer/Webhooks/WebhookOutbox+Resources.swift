import CountersignAPI
import CountersignCore
import CountersignStore

/// The one call each movement makes where its final state commits: the event's type and its data
/// from the resource as stored.
extension WebhookOutbox {
    /// A transfer that reached a final state: `transfer.completed`, `.failed`, `.declined`,
    /// `.expired` or `.cancelled`. Other states send nothing.
    package func recordTransfer(_ t: Transfer, on sql: any SQLExecutor) async throws {
        let what: String
        switch t.status {
        case .success: what = "completed"
        case .failed, .declined, .expired, .cancelled: what = t.status.rawValue.lowercased()
        case .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized: return
        }
        let data = TransferWebhookData(
            id: t.id, status: t.status.rawValue, payerId: t.payerId, payeeId: t.payeeId, payeePhone: t.payeePhone,
            amount: t.amount, currency: t.currency, totalFees: t.quote?.totalFees, failureCode: t.failure?.code,
            createdAt: WallClock.iso8601(millis: t.createdAt), updatedAt: WallClock.iso8601(millis: t.updatedAt))
        try await record(
            type: "transfer." + what, resourceType: "transfer", resourceId: t.id, data: data, now: t.updatedAt, on: sql)
    }

    /// An order that moved to `PAID`, `CANCELED`, `EXPIRED`, `SHIPPED` or `COMPLETED`.
    package func recordOrder(_ order: Order, now: Int64, on sql: any SQLExecutor) async throws {
        let what: String
        switch order.status {
        case .paid: what = "paid"
        case .canceled: what = "cancelled"
        case .expired: what = "expired"
        case .shipped: what = "shipped"
        case .completed: what = "completed"
        case .new, .paymentPending: return
        }
        let data = OrderWebhookData(
            id: order.id, status: order.status.rawValue, bidId: order.bidId, productId: order.productId,
            buyerId: order.buyerId, sellerId: order.sellerId, total: order.totals.total,
            currency: order.totals.currency, paymentMethod: order.paymentMethod.rawValue,
            createdAt: WallClock.iso8601(millis: order.createdAt), updatedAt: WallClock.iso8601(millis: now))
        try await record(
            type: "order." + what, resourceType: "order", resourceId: order.id, data: data, now: now, on: sql)
    }

    /// A wallet transaction in its final state: a top-up's `topup.completed` / `topup.failed`, an
    /// operator's funding's `wallet.credited`.
    package func recordWalletTransaction(_ t: WalletTransaction, on sql: any SQLExecutor, anyEndpoint: Bool = true)
        async throws
    {
        guard anyEndpoint, let event = try walletTransactionEvent(t) else { return }
        try await record(event, on: sql)
    }

    /// The event `recordWalletTransaction` records for `t`; nil for a state that sends none.
    package func walletTransactionEvent(_ t: WalletTransaction) throws -> Event? {
        let type: String
        switch (t.type, t.status) {
        case (.topup, .completed), (.topup, .failed): type = "topup." + t.status.rawValue
        case (.funding, .completed): type = "wallet.credited"
        default: return nil
        }
        let data = WalletTransactionWebhookData(
            id: t.id, userId: t.userId, type: t.type.rawValue, status: t.status.rawValue, amount: t.amount,
            currency: t.currency,
            cashbackUsed: t.cashbackUsed, cashbackEarned: t.cashbackEarned, failureCode: t.failureCode,
            reference: t.externalReference, createdAt: WallClock.iso8601(millis: t.createdAt),
            updatedAt: WallClock.iso8601(millis: t.updatedAt))
        return try Self.event(
            type: type, resourceType: "wallet_transaction", resourceId: t.id, data: data, now: t.updatedAt)
    }

    /// A funding through a payment provider that ended: `funding.succeeded` (the wallet was
    /// credited in this transaction), `funding.failed` or `funding.canceled` (nothing was).
    package func recordFunding(_ f: Funding, on sql: any SQLExecutor) async throws {
        guard f.status != .pending else { return }
        let data = FundingWebhookData(
            id: f.id, userId: f.userId, status: f.status.rawValue, amount: f.amount, currency: f.currency,
            method: f.method.rawValue, failureCode: f.errorCode, createdAt: WallClock.iso8601(millis: f.createdAt),
            updatedAt: WallClock.iso8601(millis: f.updatedAt))
        // The funding's history row has its id: one resource with the wallet transaction it is.
        try await record(
            type: "funding." + f.status.rawValue, resourceType: "wallet_transaction", resourceId: f.id, data: data,
            now: f.updatedAt, on: sql)
    }

    /// A refund the provider settled: `refund.succeeded` or `refund.failed`, ordered with its order's
    /// other refunds' events (the refund's own row is the resource).
    package func recordRefund(_ refund: OrderRefund, on sql: any SQLExecutor) async throws {
        guard refund.status != .pending else { return }
        let data = RefundWebhookData(
            id: refund.id, orderId: refund.orderId, status: refund.status.rawValue, amount: refund.amount,
            currency: refund.currency, reason: refund.reason, requestedBy: refund.requestedAs,
            failureMessage: refund.failureMessage, createdAt: WallClock.iso8601(millis: refund.createdAt),
            updatedAt: WallClock.iso8601(millis: refund.updatedAt))
        try await record(
            type: "refund." + refund.status.rawValue, resourceType: "refund", resourceId: refund.id, data: data,
            now: refund.updatedAt, on: sql)
    }

    /// An operator's reversal: `transfer.reversed`, or `wallet.credit_reversed` for an operator's
    /// funding (whose event was `wallet.credited`); an event of the original's resource, so it
    /// arrives after the original's own event.
    package func recordReversal(_ reversal: OperatorReversal, now: Int64, on sql: any SQLExecutor) async throws {
        let transfer = reversal.originalKind == ReversalOriginal.transfer.rawValue
        try await record(
            type: transfer ? "transfer.reversed" : "wallet.credit_reversed",
            resourceType: transfer ? "transfer" : "wallet_transaction", resourceId: reversal.originalId, data: reversal,
            now: now, on: sql)
    }
}

/// `data` of `funding.succeeded`, `.failed` and `.canceled`.
struct FundingWebhookData: Encodable {
    let id: String
    let userId: String
    let status: String
    let amount: Int64
    let currency: String
    /// `card`, `ideal` or `bancontact`.
    let method: String
    let failureCode: String?
    let createdAt: String
    let updatedAt: String
}

/// `data` of `refund.*`.
struct RefundWebhookData: Encodable {
    let id: String
    let orderId: String
    let status: String
    let amount: Int64
    let currency: String
    let reason: String
    /// `seller` or `operator`.
    let requestedBy: String
    let failureMessage: String?
    let createdAt: String
    let updatedAt: String
}

/// `data` of `transfer.*`.
struct TransferWebhookData: Encodable {
    let id: String
    let status: String
    let payerId: String
    let payeeId: String?
    let payeePhone: String
    let amount: Int64
    let currency: String
    let totalFees: Int64?
    let failureCode: String?
    let createdAt: String
    let updatedAt: String
}

/// `data` of `order.*`.
struct OrderWebhookData: Encodable {
    let id: String
    let status: String
    let bidId: String
    let productId: String
    let buyerId: String
    let sellerId: String
    let total: Int64
    let currency: String
    let paymentMethod: String
    let createdAt: String
    let updatedAt: String
}

/// `data` of `topup.*` and `wallet.credited`.
struct WalletTransactionWebhookData: Encodable {
    let id: String
    let userId: String
    let type: String
    let status: String
    let amount: Int64
    let currency: String
    let cashbackUsed: Int64
    let cashbackEarned: Int64
    let failureCode: String?
    let reference: String?
    let createdAt: String
    let updatedAt: String
}
