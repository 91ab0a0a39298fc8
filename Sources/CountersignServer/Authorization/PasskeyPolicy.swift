import CountersignAPI
import WebAuthn

/// What the operator accepts a passkey to prove: whether a synced passkey may authorize payments
/// (`--synced-passkeys`).
package struct PasskeyPolicy: Sendable, Equatable {
    /// Whether keys that may be copied to other devices (WebAuthn §6.1.3 backup eligible, "synced
    /// passkeys") are accepted.
    package enum SyncedPasskeys: String, Sendable, CaseIterable {
        /// Accepted; their backup flags are recorded. The default.
        case allow
        /// A backup-eligible key is refused at registration, and a payment assertion whose
        /// backup-state flag is set is refused.
        case deny
    }

    package var syncedPasskeys = SyncedPasskeys.allow

    package init(syncedPasskeys: SyncedPasskeys = .allow) {
        self.syncedPasskeys = syncedPasskeys
    }

    /// Refuses a registration the policy does not admit: under `deny`, a backup-eligible key.
    func checkRegistration(flags: AuthenticatorFlags) throws(APIError) {
        // WebAuthn §7.1 step 17: BE at registration says whether the key can ever leave the device.
        if syncedPasskeys == .deny, flags.backupEligible {
            throw APIError(
                .syncedPasskeyRefused,
                "This server accepts only device-bound keys; this passkey can be synced to other devices.")
        }
    }

    /// Refuses a payment signed by a key the policy does not admit: under `deny`, one whose
    /// backup-state flag is set now (it was synced, or became synced since registration).
    func checkPayment(flags: AuthenticatorFlags) throws(APIError) {
        if let refusal = paymentRefusal(flags: flags) { throw refusal }
    }

    /// `checkPayment`'s refusal, or nil.
    func paymentRefusal(flags: AuthenticatorFlags) -> APIError? {
        // WebAuthn §7.2 step 17: BS may flip from 0 to 1 after registration (a platform syncing
        // the key). Under `allow` that is only recorded; the key is never disabled for it.
        guard syncedPasskeys == .deny, flags.backupState else { return nil }
        return APIError(
            .syncedPasskeyRefused,
            "This key is now synced to other devices, which this server does not accept for payments; pay with your PIN or register a device-bound key."
        )
    }
}
