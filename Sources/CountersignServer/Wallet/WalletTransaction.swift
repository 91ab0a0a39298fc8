import CountersignCore

/// A user-facing record of money movement on a wallet: a top-up or a funding.
package struct WalletTransaction: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var type: WalletTransactionType
    package var status: WalletTransactionStatus
    package var amount: Int64
    package var currency: String
    package var productCode: String?
    package var recipientPhone: String?
    package var supplierSlug: String?
    package var authorizedBy: String?
    package var cashbackUsed: Int64
    package var cashbackEarned: Int64
    package var externalReference: String?
    /// The `Idempotency-Key` of the request that created it, completed when it settles.
    package var idempotencyKey: String?
    package var failureCode: String?
    package var createdAt: Int64
    package var updatedAt: Int64
}
