import CountersignCore

/// Money a user adds to a wallet through the payment provider.
package struct Funding: Sendable, Equatable {
    package var id: String
    package var userId: String
    package var amount: Int64
    package var currency: String
    package var method: PaymentMethodKind
    package var paymentMethodId: String?
    package var returnURL: String?
    package var status: FundingStatus
    package var paymentIntentId: String?
    package var errorCode: String?
    package var errorMessage: String?
    package var createdAt: Int64
    package var updatedAt: Int64
}
