import CountersignAPI
import CountersignCore

/// The cooling-off of a new device: a session opened by the PIN and a code on a device the account
/// did not know, or a key bound with the PIN and a code rather than by another key, pays at most
/// `maxAmount` at once until its cooling-off ends. Someone who learnt the PIN and took over the
/// number (a SIM swap) cannot empty the wallet before its holder notices the SMS and acts.
package struct NewDeviceLimit: Sendable {
    let maxAmount: Int64
    let currency: String
    let clock: WallClock

    /// Whether the session or the key is in its cooling-off now.
    func isCooling(session: LiveSession?, key: StoredCredential? = nil) -> Bool {
        max(session?.coolingUntil ?? 0, key?.coolingUntil ?? 0) > clock.nowMillis()
    }

    /// 403 `new_device_limit` when `amount` is over the limit and the session or the key is new.
    func check(amount: Int64, session: LiveSession?, key: StoredCredential? = nil) throws(APIError) {
        try check(amount: amount, session: session, keyCoolingUntil: key?.coolingUntil ?? 0)
    }

    /// `check(amount:session:key:)` with the key's cooling-off end alone (as a token carries it).
    func check(amount: Int64, session: LiveSession?, keyCoolingUntil: Int64) throws(APIError) {
        let now = clock.nowMillis()
        let until = max(session?.coolingUntil ?? 0, keyCoolingUntil)
        guard until > now, amount > maxAmount else { return }
        throw APIError(
            .newDeviceLimit,
            "This device is new to your account: until \(WallClock.iso8601(millis: until)) it may pay at most \(Self.display(maxAmount, currency)) at once.",
            retryAfter: Int((until - now + 999) / 1000))
    }

    /// `5000.00 NGN` for 500000 minor units of NGN.
    static func display(_ minor: Int64, _ currency: String) -> String {
        let digits = Currency.known[currency]?.minorUnitDigits ?? 2
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let fraction = String(minor % scale)
        return "\(minor / scale)"
            + (digits > 0 ? "." + String(repeating: "0", count: digits - fraction.count) + fraction : "")
            + " \(currency)"
    }
}
