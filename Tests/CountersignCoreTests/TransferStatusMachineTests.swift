import CountersignCore
import Testing

/// Every (from, to) pair of transfer statuses against the machine as documented: `move(to:)` makes
/// exactly these moves and refuses every other, leaving the status as it was.
@Suite("Transfer state machine")
struct TransferStatusMachineTests {
    /// The allowed moves, written out on their own so the test does not read the table it checks.
    static let allowed: [TransferStatus: Set<TransferStatus>] = [
        .pendingPayeeLookup: [.pendingQuote, .failed, .cancelled],
        .pendingQuote: [.authorizationRequired, .failed, .cancelled],
        .authorizationRequired: [.authorized, .failed, .declined, .expired, .cancelled],
        .authorized: [.success, .failed],
        .success: [], .failed: [], .declined: [], .expired: [], .cancelled: [],
    ]

    @Test("move(to:) and canMove(to:) agree with the table on every pair", arguments: TransferStatus.allCases)
    func everyPair(from: TransferStatus) throws {
        let expected = try #require(Self.allowed[from])
        for to in TransferStatus.allCases {
            var status = from
            if expected.contains(to) {
                #expect(from.canMove(to: to), "\(from) → \(to)")
                #expect(throws: Never.self, "\(from) → \(to)") { try status.move(to: to) }
                #expect(status == to)
            } else {
                #expect(!from.canMove(to: to), "\(from) → \(to)")
                #expect(throws: ForbiddenMove(from: from, to: to), "\(from) → \(to)") {
                    try status.move(to: to)
                }
                #expect(status == from)
            }
            #expect(TransferStatus.sources(of: to).contains(from) == expected.contains(to))
        }
        #expect(expected.isEmpty == from.isFinal)
    }
}
