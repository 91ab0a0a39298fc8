import CountersignAPI
import CountersignCore
import CountersignStore

/// Money in: a user adds money to a wallet by card or bank through the same payment provider as
/// marketplace checkout. A funding is made `pending` (with its history row) in the transaction that
/// claims the request's `Idempotency-Key`; the provider's intent is created with a key derived from
/// the funding, so a retry after a crash reaches the same intent; the wallet is credited once, in
/// the transaction that moves the funding to `succeeded` (see `settle`).
package struct FundingService: Sendable {
    let database: any Database
    let wallets: WalletService
    let provider: any PaymentProvider
    let returnURLs: ReturnURLPolicy
    let clock: WallClock
    let instance: ServerInstance
    let metrics: ServerMetrics
    let limits: SpendingLimits

    /// The smallest funding, in minor units (1.00): less costs more in provider fees than it adds.
    package static let minimumAmount: Int64 = 100
    /// The largest single funding, in minor units (10,000.00).
    package static let maximumAmount: Int64 = 1_000_000
    /// A funding still waiting for its payer this long is abandoned: its intent is canceled.
    package static let abandonAfterMillis: Int64 = 60 * 60 * 1000
    /// Funding ids start so; the provider's events about them carry the id where an order's would be.
    static let idPrefix = "wf"

    /// The methods a funding in `currency` may use, as checkout offers them: card everywhere, the
    /// euro bank methods for euros.
    package static func methods(for currency: String) -> [PaymentMethodKind] {
        currency == "EUR" ? [.card, .ideal, .bancontact] : [.card]
    }

    /// Starts a funding, or — for a key already used with the same request — reports the one it
    /// started (`replayed`), as it stands now.
    package func create(userId: String, _ request: CreateFundingRequest, idempotencyKey: String) async throws -> (
        funding: WalletFunding, replayed: Bool
    ) {
        let request = try validate(request)
        let idempotent = IdempotentRequest(key: idempotencyKey, canonical: Self.canonical(request))
        let now = clock.nowMillis()
        let funding = Funding(
            id: Identifier.make(Self.idPrefix), userId: userId, amount: request.amount, currency: request.currency,
            method: request.method, paymentMethodId: request.paymentMethodId, returnURL: request.returnURL,
            status: .pending, paymentIntentId: nil, errorCode: nil, errorMessage: nil, createdAt: now, updatedAt: now)
        let owner = instance.id
        let (stored, created) = try await database.transaction { sql in
            try await sql.idempotency.claimResource(
                idempotent, userId: userId, owner: owner, now: now, id: \.id,
                find: { try await sql.fundings.find(id: $0) },
                make: {
                    try await checkIncoming(userId: userId, amount: funding.amount, currency: funding.currency, on: sql)
                    try await sql.fundings.insert(funding)
                    try await sql.walletTransactions.insert(funding.walletTransaction)
                    return funding
                })
        }
        // Another endpoint's resource under this key (its fingerprint never matches a funding's).
        guard let stored, stored.userId == userId else { throw IdempotentRequest.reused }
        return (try await refresh(stored), !created)
    }

    /// The one place money coming in is checked before the provider is asked for it, in the
    /// transaction that records the funding: the wallet's maximum balance, counting the user's
    /// fundings still pending. The wallet's row is locked first (PostgreSQL), so parallel fundings
    /// are checked one after another and cannot together pass the limit. A funding that passed is
    /// credited when it succeeds even if other money came in meanwhile: the payer was charged.
    func checkIncoming(userId: String, amount: Int64, currency: String, on sql: any SQLExecutor) async throws {
        let now = clock.nowMillis()
        let wallet = try await sql.ledger.openAccount(userId: userId, kind: .wallet, currency: currency, now: now)
        try await SpendingLimits.lock([wallet], database: database, on: sql)
        let pending = try await sql.fundings.pendingTotal(userId: userId, currency: currency)
        try await limits.checkOwnIncoming(
            userId: userId, currency: currency, amount: amount, pending: pending, now: now, on: sql)
    }

    /// The request as it will be stored: the currency one of the wallets', the method offered for it,
    /// the amount within bounds, and what the method needs.
    func validate(_ request: CreateFundingRequest) throws(APIError) -> CreateFundingRequest {
        var request = request
        request.currency = try wallets.walletCurrency(request.currency)
        let currency = Currency.named(request.currency)
        guard Self.methods(for: request.currency).contains(request.method) else {
            throw APIError(
                .paymentMethodNotOffered,
                "\(request.method.displayName) is not offered for \(request.currency); choose "
                    + Self.methods(for: request.currency).map(\.displayName).joined(separator: " or ") + ".")
        }
        guard request.amount >= Self.minimumAmount else {
            throw APIError(
                .fundingBelowMinimum, "You can add at least \(currency.format(Self.minimumAmount)) at a time.")
        }
        guard request.amount <= Self.maximumAmount else {
            throw APIError(
                .fundingAboveMaximum, "You can add at most \(currency.format(Self.maximumAmount)) at a time.")
        }
        if request.method != .card { request.paymentMethodId = nil }
        if request.method == .card, request.paymentMethodId == nil {
            throw APIError(.paymentMethodRequired, "A card payment needs paymentMethodId, one of your saved cards.")
        }
        if let returnURL = request.returnURL, !returnURLs.permits(returnURL) {
            throw APIError(
                .returnURLNotAllowed,
                "returnURL must be an absolute URL of at most 2048 characters at one of this server's return origins or app schemes."
            )
        }
        if request.returnURL == nil, provider.requiresReturnURL(request.method) {
            throw APIError(
                .returnURLRequired,
                "returnURL is required: the payment provider may send the payer to 3-D Secure or the bank and back.")
        }
        return request
    }

    /// What makes two fundings "the same request", apart from every other endpoint's.
    static func canonical(_ request: CreateFundingRequest) -> [UInt8] {
        let fields = [
            "wallet_funding", String(request.amount), request.currency, request.method.rawValue,
            request.paymentMethodId ?? "", request.returnURL ?? "",
        ]
        return Array(fields.joined(separator: "\u{0}").utf8)
    }

    /// `GET /wallet/fundings/{id}`: the user's funding, refreshed from the provider while pending;
    /// 404 for anyone else's, so ids reveal nothing.
    package func funding(userId: String, id: String) async throws -> WalletFunding {
        guard id.utf8.count <= 64,
            let funding = try await database.read({ sql in try await sql.fundings.find(id: id) }),
            funding.userId == userId
        else { throw APIError(.fundingNotFound, "No such funding.") }
        return try await refresh(funding)
    }
}

extension Funding {
    /// The funding's row in history: the same id, `funding`, by the method that pays it.
    var walletTransaction: WalletTransaction {
        WalletTransaction(
            id: id, userId: userId, type: .funding, status: status.transactionStatus, amount: amount,
            currency: currency, productCode: nil, recipientPhone: nil, supplierSlug: nil,
            authorizedBy: method.rawValue, cashbackUsed: 0, cashbackEarned: 0, externalReference: nil,
            idempotencyKey: nil, failureCode: nil, createdAt: createdAt, updatedAt: updatedAt)
    }
}
