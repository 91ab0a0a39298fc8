import CountersignCore
import Testing

/// Every (from, to) pair of each status machine against the machine as documented: `move(to:)` makes
/// exactly the listed moves and refuses every other, leaving the status as it was. The tables are
/// written out here on their own, so a test does not read the table it checks.
@Suite("State machines")
struct StatusMachineTests {
    static let transfers: [TransferStatus: Set<TransferStatus>] = [
        .pendingPayeeLookup: [.pendingQuote, .failed, .cancelled],
        .pendingQuote: [.authorizationRequired, .failed, .cancelled],
        .authorizationRequired: [.authorized, .failed, .declined, .expired, .cancelled],
        .authorized: [.success, .failed],
        .success: [], .failed: [], .declined: [], .expired: [], .cancelled: [],
    ]

    static let orders: [OrderStatus: Set<OrderStatus>] = [
        .new: [.paymentPending, .canceled, .expired, .paid],
        // A failed or abandoned attempt returns the order to NEW.
        .paymentPending: [.new, .paid, .canceled, .expired],
        .paid: [.shipped],
        .shipped: [.completed],
        .canceled: [], .expired: [], .completed: [],
    ]

    static let refunds: [RefundStatus: Set<RefundStatus>] = [
        .pending: [.succeeded, .failed],
        .succeeded: [], .failed: [],
    ]

    static let bids: [BidStatus: Set<BidStatus>] = [
        .new: [.accepted, .canceled, .expired],
        .accepted: [.canceled, .expired, .completed],
        .canceled: [], .expired: [], .completed: [],
    ]

    static let walletTransactions: [WalletTransactionStatus: Set<WalletTransactionStatus>] = [
        .pending: [.completed, .failed],
        .completed: [], .failed: [],
    ]

    /// Checks every pair from `from` against `allowed`.
    static func checkEveryPair<Status: StatusMachine>(from: Status, _ allowed: [Status: Set<Status>]) throws {
        let expected = try #require(allowed[from], "\(from) is missing from the table")
        for to in Status.allCases {
            var status = from
            var refusal: ForbiddenMove<Status>?
            do { try status.move(to: to) } catch { refusal = error }
            if expected.contains(to) {
                #expect(from.canMove(to: to), "\(from) → \(to)")
                #expect(refusal == nil && status == to, "\(from) → \(to)")
            } else {
                #expect(!from.canMove(to: to), "\(from) → \(to)")
                #expect(refusal == ForbiddenMove(from: from, to: to) && status == from, "\(from) → \(to)")
            }
            #expect(Status.sources(of: to).contains(from) == expected.contains(to), "sources of \(to)")
        }
    }

    @Test(
        "transfers: move(to:) and canMove(to:) agree with the table on every pair", arguments: TransferStatus.allCases)
    func transferPairs(from: TransferStatus) throws {
        try Self.checkEveryPair(from: from, Self.transfers)
        #expect(Self.transfers[from]?.isEmpty == from.isFinal)
    }

    @Test("orders: move(to:) and canMove(to:) agree with the table on every pair", arguments: OrderStatus.allCases)
    func orderPairs(from: OrderStatus) throws {
        try Self.checkEveryPair(from: from, Self.orders)
    }

    @Test("refunds: move(to:) and canMove(to:) agree with the table on every pair", arguments: RefundStatus.allCases)
    func refundPairs(from: RefundStatus) throws {
        try Self.checkEveryPair(from: from, Self.refunds)
    }

    @Test("bids: move(to:) and canMove(to:) agree with the table on every pair", arguments: BidStatus.allCases)
    func bidPairs(from: BidStatus) throws {
        try Self.checkEveryPair(from: from, Self.bids)
        #expect(Self.bids[from]?.isEmpty == from.isFinal)
    }

    @Test(
        "wallet transactions: move(to:) and canMove(to:) agree with the table on every pair",
        arguments: WalletTransactionStatus.allCases)
    func walletTransactionPairs(from: WalletTransactionStatus) throws {
        try Self.checkEveryPair(from: from, Self.walletTransactions)
    }
}
