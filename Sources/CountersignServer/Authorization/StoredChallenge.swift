/// A challenge the server issued and has not yet seen used.
package struct StoredChallenge: Sendable, Equatable {
    /// The challenge bytes, base64url.
    package let challenge: String
    package let userId: String
    package let purpose: ChallengePurpose
    /// The canonical intent JSON an authentication challenge covers.
    package let intent: String?
    /// SHA-256 of the canonical intent, base64url.
    package let intentDigest: String?
    /// `required` or `preferred`, as announced in the options.
    package let userVerification: String
    package let expiresAt: Int64
}
