import Synchronization

/// Nothing, not even a keep-alive comment, arrived on a stream for `limit`: the connection is
/// presumed dead. A mobile network can vanish without closing the connection, so silence is the
/// only sign of it.
public struct StreamIdleTimeout: Error, Sendable, Equatable {
    /// How long the stream was silent.
    public var limit: Duration
}

extension TransportStream {
    /// The body, ending with `StreamIdleTimeout` when a whole window of `limit` passes without a
    /// chunk (so a dead connection is noticed after `limit` to `2 × limit`). `wait` spends each window.
    func body(idleLimit limit: Duration, wait: @escaping @Sendable (Duration) async throws -> Void)
        -> AsyncThrowingStream<[UInt8], any Error>
    {
        let (output, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        let activity = Activity()
        let body = self.body
        let reader = Task {
            do {
                for try await chunk in body {
                    activity.mark()
                    continuation.yield(chunk)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let watchdog = Task {
            while true {
                do {
                    try await wait(limit)
                } catch {
                    return // cancelled: the stream has ended
                }
                if !activity.takeMark() {
                    continuation.finish(throwing: StreamIdleTimeout(limit: limit))
                    return
                }
            }
        }
        continuation.onTermination = { _ in
            reader.cancel()
            watchdog.cancel()
        }
        return output
    }
}

/// Whether a stream delivered anything since the watchdog last looked.
private final class Activity: Sendable {
    private let marked = Mutex(false)

    func mark() { marked.withLock { $0 = true } }

    /// Whether anything arrived since the last call, clearing the mark.
    func takeMark() -> Bool {
        marked.withLock { marked in
            defer { marked = false }
            return marked
        }
    }
}
