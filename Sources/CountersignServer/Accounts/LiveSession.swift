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
    /// The user's row, read in the same statement as the session (nil where a session is made by
    /// hand): a request reads it once.
    package var user: User? = nil

    /// The user's row if it was read with the session and is `userId`'s.
    package func user(_ userId: String) -> User? {
        user?.id == userId ? user : nil
    }
}
