import Synchronization
import Testing

/// The payment screen's clock in tests: records every wait. `.immediate` returns at once; `.held`
/// keeps each wait until `release()`, and a cancelled wait throws at once, as `Task.sleep` does.
final class TestSleeper: Sendable {
    enum Mode: Sendable {
        case immediate
        case held
    }

    private struct Waits {
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var next = 0
        var durations: [Duration] = []
    }

    private let mode: Mode
    private let waits = Mutex(Waits())

    init(_ mode: Mode) { self.mode = mode }

    /// Every duration waited for (or begun), in order.
    var durations: [Duration] { waits.withLock { $0.durations } }

    /// How many waits are held now.
    var waiting: Int { waits.withLock { $0.waiting.count } }

    func sleep(_ duration: Duration) async throws {
        let id = waits.withLock { waits in
            waits.durations.append(duration)
            waits.next += 1
            return waits.next
        }
        guard mode == .held else {
            try Task.checkCancellation()
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock, as the handler below removes under it: one of them sees the other.
                let cancelled = waits.withLock { waits in
                    if Task.isCancelled { return true }
                    waits.waiting[id] = continuation
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            waits.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Ends every held wait.
    func release() {
        let released = waits.withLock { waits in
            defer { waits.waiting = [:] }
            return Array(waits.waiting.values)
        }
        for continuation in released { continuation.resume() }
    }
}
