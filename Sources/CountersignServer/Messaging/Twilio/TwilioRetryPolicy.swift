/// How a message Twilio did not take is tried again: only after a network failure (no answer, a
/// refused connection, a timeout), a 429 or a 5xx, never after a refusal of the message itself.
/// The waits grow exponentially with jitter, so senders that failed together do not retry together.
///
/// Twilio's Messages API has no idempotency key: an attempt that timed out after Twilio took it is
/// sent again, and the phone gets the message twice. For a one-time code that is the lesser harm.
package struct TwilioRetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    package var attempts = 3
    /// The wait before the second attempt, before jitter; it doubles after each failure.
    package var baseDelay: Duration = .milliseconds(250)
    /// No wait is longer, `Retry-After` included: the dispatcher has other messages to send.
    package var maxDelay: Duration = .seconds(4)

    package init() {}

    /// The wait after failed attempt `attempt` (1-based): half the exponential step plus a random
    /// part of the other half, at least what `Retry-After` asked for, at most `maxDelay`.
    func delay(after attempt: Int, retryAfter: Duration?) -> Duration {
        let step = min(maxDelay, baseDelay * (1 << min(attempt - 1, 20)))
        let jittered = step / 2 + (step / 2) * Double.random(in: 0...1)
        return min(maxDelay, max(jittered, retryAfter ?? .zero))
    }
}
