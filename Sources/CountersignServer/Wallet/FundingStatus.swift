import CountersignCore

/// Where a funding through the payment provider stands. `pending` moves once, to one of the others.
package enum FundingStatus: String, Sendable, Equatable {
    case pending, succeeded, failed, canceled

    /// The status of the funding's row in history.
    var transactionStatus: WalletTransactionStatus {
        switch self {
        case .pending: .pending
        case .succeeded: .completed
        case .failed, .canceled: .failed
        }
    }
}
