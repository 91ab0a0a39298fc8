/// A device that held a session of a user: it may sign in again with the PIN alone.
package struct KnownDevice: Sendable, Equatable {
    package let id: String
    package let userId: String
    /// What it said it was when first seen (its `User-Agent`, shortened and sanitized).
    package let label: String
    package let createdAt: Int64
    package let lastUsedAt: Int64
    /// First seen through the PIN and a code: until then its sessions pay at most the new-device limit.
    package let coolingUntil: Int64
}
