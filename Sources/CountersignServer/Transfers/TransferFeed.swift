import Synchronization

/// Wakes whoever watches a transfer when a new version of it is committed: the SSE streams and the
/// background worker of this process. Signals carry no data; a woken watcher reads the versions it
/// has not seen from the database, so a lost or duplicated signal costs a read, never an event.
///
/// Across processes, the PostgreSQL `LISTEN` service feeds signals committed elsewhere in here.
package final class TransferFeed: Sendable {
    private struct Watchers {
        var byTransfer: [String: [Int: AsyncStream<Void>.Continuation]] = [:]
        var next = 0
    }

    private let watchers = Mutex(Watchers())
    /// Woken on every signal, whatever the transfer: the worker's doorbell.
    private let work: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)

    package init() {
        work = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A watch on `transferId`: its `signals` yield once (coalesced) after each change, until
    /// `cancel()`.
    package func watch(_ transferId: String) -> TransferWatch {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let token = watchers.withLock { state in
            let token = state.next
            state.next += 1
            state.byTransfer[transferId, default: [:]][token] = continuation
            return token
        }
        return TransferWatch(signals: stream, continuation: continuation) { [weak self] in
            self?.watchers.withLock { state in
                state.byTransfer[transferId]?.removeValue(forKey: token)
                if state.byTransfer[transferId]?.isEmpty == true { state.byTransfer[transferId] = nil }
            }
            continuation.finish()
        }
    }

    /// A new version of `transferId` was committed (here or in another process). `wakeWorker` is
    /// false for the worker's own steps: it keeps draining anyway.
    package func signal(_ transferId: String, wakeWorker: Bool = true) {
        let continuations = watchers.withLock { Array(($0.byTransfer[transferId] ?? [:]).values) }
        for continuation in continuations { continuation.yield() }
        if wakeWorker { work.continuation.yield() }
    }

    /// Wakes the worker without any transfer changing (its timer).
    package func nudgeWorker() { work.continuation.yield() }

    /// Yields after signals (coalesced): the background worker waits on it between passes.
    package var workSignals: AsyncStream<Void> { work.stream }
}

/// One watcher's signals for one transfer.
package struct TransferWatch: Sendable {
    /// Yields after each change of the transfer (coalesced), and after each `ring()`.
    package let signals: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation
    let onCancel: @Sendable () -> Void

    /// Wakes this watcher without a change (its own timer: the fallback re-read, the keep-alive).
    package func ring() { continuation.yield() }

    /// Stops watching; `signals` finishes.
    package func cancel() { onCancel() }
}
