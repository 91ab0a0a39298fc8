import CountersignCore

/// Where a funding through the payment provider stands. `pending` moves once, to one of the others.
package enum FundingStatus: String, Sendable, Hashable, CaseIterable, StatusMachine {
    case pending, succeeded, failed, canceled

    /// The state machine: a pending funding ends once; an ended one never changes.
    package func canMove(to next: FundingStatus) -> Bool {
        self == .pending && next != .pending
    }

    /// The status of the funding's row in history.
    var transactionStatus: WalletTransactionStatus {
        switch self {
        case .pending: .pending
        case .succeeded: .completed
        case .failed, .canceled: .failed
        }
    }
}
