/// Why a bid ended (`withdrawn`, `declined`, `sold`), so its bidder can be told; NULL for open
/// bids, completed ones, and those that ended before this column existed.
enum Migration0017BidClosedReason {
    static let migration = Migration(
        version: 17, name: "bid_closed_reason",
        statements: [
            "ALTER TABLE bids ADD COLUMN closed_reason TEXT"
        ])
}
