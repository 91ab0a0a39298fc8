/// How a dropped event stream is reconnected: how many times in a row, and how long to wait.
public struct ReconnectPolicy: Sendable {
    /// Reconnections tried in a row without receiving an event before giving up.
    public var maxAttempts: Int
    /// The wait before the first reconnection; it doubles with each further one.
    public var initialDelay: Duration
    /// The longest wait between two reconnections.
    public var maxDelay: Duration
    /// How the wait is spent; tests pass one that returns at once.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A policy with every field given.
    public init(
        maxAttempts: Int, initialDelay: Duration, maxDelay: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
    }

    /// Five attempts over about 15 seconds: 1, 2, 4, 8, 8 s (a mobile network's usual blackout).
    public static let standard = ReconnectPolicy(maxAttempts: 5, initialDelay: .seconds(1), maxDelay: .seconds(8))

    /// The wait before reconnection `attempt` (1 for the first): doubling, capped at `maxDelay`.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
