import Foundation

/// What the server asked of its store per completed flow, from its own `/metrics` scraped before
/// and after the load (warm-up included, so divided by every flow that completed): statements,
/// transactions and reads. On PostgreSQL each statement is one message exchange, and a transaction
/// adds two (`BEGIN`, `COMMIT`); a single statement committing on its own (`Database.single`, counted
/// apart from transactions) adds none. A server too old to count statements reports none.
struct DatabaseWork: Codable, Sendable, Equatable {
    let statementsPerFlow: Double
    let transactionsPerFlow: Double
    let readsPerFlow: Double

    /// Statements plus each transaction's `BEGIN` and `COMMIT`: PostgreSQL's round trips.
    var exchangesPerFlow: Double { statementsPerFlow + 2 * transactionsPerFlow }

    /// The change between two expositions over `flows` flows; nil when the server does not count
    /// statements or no flow completed.
    init?(before: String, after: String, flows: Int) {
        guard flows > 0, after.contains("countersign_db_statements_total") else { return nil }
        let count = { (text: String, name: String, label: String?) in
            Self.sum(in: text, name: name, label: label)
        }
        let perFlow = { (name: String, label: String?) in
            (count(after, name, label) - count(before, name, label)) / Double(flows)
        }
        statementsPerFlow = perFlow("countersign_db_statements_total", nil)
        transactionsPerFlow = perFlow("countersign_db_duration_seconds_count", #"operation="transaction""#)
        readsPerFlow = perFlow("countersign_db_duration_seconds_count", #"operation="read""#)
    }

    /// The sum of every sample of `name` (whatever its labels) whose labels contain `label`.
    static func sum(in exposition: String, name: String, label: String?) -> Double {
        var total = 0.0
        for line in exposition.split(separator: "\n") where line.hasPrefix(name) {
            let rest = line.dropFirst(name.count)
            guard rest.first == "{" || rest.first == " " else { continue }
            if let label, !rest.contains(label) { continue }
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { total += value }
        }
        return total
    }
}
