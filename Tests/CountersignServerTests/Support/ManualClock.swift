import CountersignServer
import Synchronization

/// A clock that tests move by hand; it starts at the system time.
final class ManualClock: Sendable {
    private let offset = Mutex<Int64>(0)
    private let start = WallClock.system.nowMillis()

    init() {}

    /// Moves time forward.
    func advance(seconds: Int64) { offset.withLock { $0 += seconds * 1000 } }

    /// The clock to hand to the server.
    var wallClock: WallClock { WallClock { [self] in start + offset.withLock { $0 } } }
}
