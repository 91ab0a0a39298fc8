import CountersignStore

/// The one write of a transfer's next version, for the payer's commands (`TransferService`) and the
/// worker's steps (`TransferProcessor`) alike: saved over the version before it, announced to other
/// processes on commit, and counted once final.
struct TransferWriter: Sendable {
    let database: any Database
    let metrics: ServerMetrics

    /// Saves `next` over its previous version in the transaction of `sql`; false if another writer
    /// moved the transfer first.
    func commit(_ next: Transfer, on sql: any SQLExecutor) async throws -> Bool {
        guard try await sql.transfers.save(next) else { return false }
        try await database.notify(channel: TransferChangeListener.channel, payload: next.id, on: sql)
        // Counted as written: the caller's commit follows at once (a rollback now is a store failure).
        if next.status.isFinal { metrics.payment(kind: "transfer", outcome: next.status.rawValue.lowercased()) }
        return true
    }
}
