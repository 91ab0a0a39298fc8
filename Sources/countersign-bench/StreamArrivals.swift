import Synchronization

/// What each of the bench's event streams has received so far, shared by the event-loop threads
/// that read the streams and the task that waits on them. Indexed by stream (one per transfer).
final class StreamArrivals: Sendable {
    /// One stream's progress.
    struct Progress: Sendable {
        /// When the first event (the current version) arrived.
        var firstEventAt: ContinuousClock.Instant?
        /// The status and sequence of the last event received.
        var status: String?
        var sequence: Int64 = 0
        /// When an event with a final status arrived.
        var finalAt: ContinuousClock.Instant?
        /// Versions received out of order or twice (should stay zero).
        var disorders = 0
        var keepAlives = 0
        /// Why the stream failed or ended before its final version, if it did.
        var failure: String?
    }

    private let progress: Mutex<[Progress]>

    /// Arrivals for `count` streams, none yet.
    init(count: Int) {
        progress = Mutex(Array(repeating: Progress(), count: count))
    }

    /// Records an event of stream `index`, received at `instant`.
    func event(_ index: Int, sequence: Int64, status: String, final: Bool, at instant: ContinuousClock.Instant) {
        progress.withLock { all in
            if all[index].firstEventAt == nil { all[index].firstEventAt = instant }
            if sequence <= all[index].sequence { all[index].disorders += 1 }
            all[index].sequence = sequence
            all[index].status = status
            if final, all[index].finalAt == nil { all[index].finalAt = instant }
        }
    }

    /// Counts a keep-alive comment on stream `index`.
    func keepAlive(_ index: Int) {
        progress.withLock { $0[index].keepAlives += 1 }
    }

    /// Stream `index` ended or failed; an end after its final version is not a failure.
    func ended(_ index: Int, _ reason: String) {
        progress.withLock { all in
            if all[index].finalAt == nil, all[index].failure == nil { all[index].failure = reason }
        }
    }

    /// A copy of every stream's progress.
    func snapshot() -> [Progress] {
        progress.withLock { $0 }
    }

    /// How many streams satisfy `predicate`.
    func count(where predicate: (Progress) -> Bool) -> Int {
        progress.withLock { $0.count(where: predicate) }
    }
}
