import Foundation
import Synchronization

/// Tells this process's open event streams that a user's sessions ended (logout, log out
/// everywhere), so a stream opened with a session that is gone stops at once rather than at its
/// next fallback re-read. Streams on other instances notice on that re-read.
package final class SessionSignals: Sendable {
    private let observers = Mutex<[String: [UUID: @Sendable () -> Void]]>([:])

    package init() {}

    /// Calls `wake` whenever a session of `userId` ends, until the returned observation is cancelled.
    package func observe(userId: String, _ wake: @escaping @Sendable () -> Void) -> Observation {
        let id = UUID()
        observers.withLock { $0[userId, default: [:]][id] = wake }
        return Observation { [weak self] in
            self?.observers.withLock { observers in
                observers[userId]?[id] = nil
                if observers[userId]?.isEmpty == true { observers[userId] = nil }
            }
        }
    }

    /// Wakes every stream of `userId`; each checks its own session.
    package func sessionsEnded(userId: String) {
        let wakes = observers.withLock { Array(($0[userId] ?? [:]).values) }
        for wake in wakes { wake() }
    }

    /// A registration to cancel when the stream ends.
    package struct Observation: Sendable {
        let cancel: @Sendable () -> Void
    }
}
