import CountersignCore
import CountersignServer
import Testing

/// The funding state machine against its table, written out here on its own: a pending funding ends
/// once, and an ended one never changes.
@Suite("Funding state machine")
struct FundingStatusTests {
    static let moves: [FundingStatus: Set<FundingStatus>] = [
        .pending: [.succeeded, .failed, .canceled],
        .succeeded: [], .failed: [], .canceled: [],
    ]

    @Test("move(to:) makes exactly the listed moves and refuses every other", arguments: FundingStatus.allCases)
    func pairs(from: FundingStatus) {
        for to in FundingStatus.allCases {
            var status = from
            let allowed = Self.moves[from]?.contains(to) == true
            #expect(from.canMove(to: to) == allowed, "\(from) → \(to)")
            do {
                try status.move(to: to)
                #expect(allowed && status == to, "\(from) → \(to)")
            } catch {
                #expect(!allowed && status == from, "\(from) → \(to)")
            }
        }
    }
}
