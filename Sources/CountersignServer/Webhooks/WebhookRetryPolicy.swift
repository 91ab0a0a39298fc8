/// When a failed delivery is tried again: exponential backoff from `baseMillis`, doubling per
/// attempt up to `maxDelayMillis`, with jitter (each delay drawn from its upper half, so receivers
/// that failed together are not all retried together), until `giveUpAfterMillis` from the event.
/// An endpoint whose deliveries have failed for `disableAfterMillis` without a success is disabled
/// until an operator enables it again.
package struct WebhookRetryPolicy: Sendable {
    package var baseMillis: Int64 = 5_000
    package var maxDelayMillis: Int64 = 3_600_000
    /// Three days.
    package var giveUpAfterMillis: Int64 = 3 * 86_400_000
    package var disableAfterMillis: Int64 = 3 * 86_400_000

    package init() {}

    /// The delay before attempt `attempts + 1`, after `attempts` failed ones (at least 1).
    package func delay(afterAttempts attempts: Int64, random: Double = Double.random(in: 0..<1)) -> Int64 {
        let exponent = min(max(attempts - 1, 0), 40)
        let (scaled, overflow) = baseMillis.multipliedReportingOverflow(by: Int64(1) << exponent)
        let full = overflow ? maxDelayMillis : min(scaled, maxDelayMillis)
        return full / 2 + Int64(Double(full / 2) * min(max(random, 0), 1))
    }
}
