/// A live session: whose it is and when it was last seen (milliseconds).
package struct LiveSession: Sendable, Equatable {
    package let userId: String
    package let lastSeenAt: Int64
    /// How it was opened: `device` (the PIN on a remembered device), `code` (the PIN and a code on a
    /// new device), `signup`, `passkey`, `reset`, or `pin` for sessions from before devices were
    /// remembered.
    package var proof = "pin"
    package var createdAt: Int64 = 0
    /// The remembered device it runs on.
    package var deviceId: String? = nil
    /// A new device's cooling-off: until then payments from this session are limited.
    package var coolingUntil: Int64 = 0
}
