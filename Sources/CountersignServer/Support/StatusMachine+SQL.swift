import CountersignCore
import CountersignStore

extension StatusMachine {
    /// This status and `next` as bound values for `UPDATE … SET status = next WHERE status = this`,
    /// once the machine allows the move: a move it does not have throws before any SQL runs.
    func boundMove(to next: Self) throws(ForbiddenMove<Self>) -> (from: SQLValue, to: SQLValue) {
        var moved = self
        try moved.move(to: next)
        return (.text(rawValue), .text(moved.rawValue))
    }

    /// The statuses the machine moves to `next` from, for `status IN (…)`: the placeholders, numbered
    /// from `$first`, and their bound values. Empty when nothing moves to `next`.
    static func boundSources(of next: Self, first: Int) -> (placeholders: String, values: [SQLValue]) {
        let statuses = Self.sources(of: next)
        let placeholders = statuses.indices.map { "$\($0 + first)" }.joined(separator: ", ")
        return (placeholders, statuses.map { .text($0.rawValue) })
    }
}
