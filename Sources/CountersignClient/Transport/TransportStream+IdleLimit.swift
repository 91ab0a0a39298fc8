import Synchronization

/// Nothing, not even a keep-alive comment, arrived on a stream for `limit`: the connection is
/// presumed dead. A mobile network can vanish without closing the connection, so silence is the
/// only sign of it.
public struct StreamIdleTimeout: Error, Sendable, Equatable {
    /// How long the stream was silent.
    public var limit: Duration
}

extension TransportStream {
    /// The body, ending with `StreamIdleTimeout` when no chunk arrives for `limit`.
    func body(idleLimit limit: Duration) -> AsyncThrowingStream<[UInt8], any Error> {
        let (output, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        let lastChunk = LastActivity()
        let body = self.body
        let reader = Task {
            do {
                for try await chunk in body {
                    lastChunk.touch()
                    continuation.yield(chunk)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let watchdog = Task {
            while !Task.isCancelled {
                let silent = lastChunk.elapsed
                if silent >= limit {
                    continuation.finish(throwing: StreamIdleTimeout(limit: limit))
                    return
                }
                try? await Task.sleep(for: limit - silent)
            }
        }
        continuation.onTermination = { _ in
            reader.cancel()
            watchdog.cancel()
        }
        return output
    }
}

/// When a stream last delivered something, shared by its reader and its watchdog.
private final class LastActivity: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func touch() { instant.withLock { $0 = .now } }

    var elapsed: Duration { instant.withLock { ContinuousClock.now - $0 } }
}
