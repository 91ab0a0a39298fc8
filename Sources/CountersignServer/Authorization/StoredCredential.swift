/// A registered device key or passkey.
package struct StoredCredential: Sendable, Equatable {
    /// The credential id, base64url.
    package let id: String
    package let userId: String
    /// The COSE_Key, base64url.
    package let publicKey: String
    package let algorithm: Int64
    package let signCount: Int64
    package let backupEligible: Bool
    package let backupState: Bool
    package let transports: [String]
    package let attestationFormat: String
    package let attestationVerified: Bool
    /// Set when the credential misbehaved (a sign-count regression suggests a cloned key); a
    /// flagged credential authorizes nothing until it is registered again.
    package let flaggedAt: Int64?
    /// When it was registered and last used (milliseconds); 0 and nil before it is stored.
    package var createdAt: Int64 = 0
    package var lastUsedAt: Int64?
    /// How the key was bound: `key` (a step-up by another key), `pin-code` (the PIN and a code),
    /// `signup` (right after the number was proven), `pin` (before codes existed).
    package var boundBy = "pin"
    /// Bound without another key: until then (milliseconds) it pays at most the new-device limit.
    package var coolingUntil: Int64 = 0
}
