import Foundation

/// The expiry check every provider applies before a card is saved.
enum CardExpiry {
    /// Throws `ProviderError.invalidExpiry` unless `month` is 1…12 and the month is neither past
    /// (at `nowMillis`, UTC) nor more than 50 years ahead.
    static func check(month: Int, year: Int, nowMillis: Int64) throws {
        let now = Date(timeIntervalSince1970: Double(nowMillis) / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let today = calendar.dateComponents([.year, .month], from: now)
        let (thisYear, thisMonth) = (today.year ?? 0, today.month ?? 1)
        // Range-check the year before any arithmetic: it comes from the client, and `year * 12`
        // trapped on Int.min.
        guard (1...12).contains(month), (thisYear...thisYear + 50).contains(year), year > thisYear || month >= thisMonth
        else {
            throw ProviderError.invalidExpiry
        }
    }
}
