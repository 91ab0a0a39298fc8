import CountersignAPI
import Foundation
import WebAuthn

/// What the operator accepts a passkey to prove: whether a synced passkey may authorize payments
/// (`--synced-passkeys`), and which authenticator models may register (`--authenticator-allow`,
/// `--authenticator-deny`).
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
    /// When not empty, only these models (AAGUIDs), attested, may register.
    package var authenticatorAllow: Set<UUID> = []
    /// Models (AAGUIDs) refused when attested.
    package var authenticatorDeny: Set<UUID> = []

    package init(
        syncedPasskeys: SyncedPasskeys = .allow, authenticatorAllow: Set<UUID> = [], authenticatorDeny: Set<UUID> = []
    ) {
        self.syncedPasskeys = syncedPasskeys
        self.authenticatorAllow = authenticatorAllow
        self.authenticatorDeny = authenticatorDeny
    }

    /// Applies the model lists to a registration's AAGUID. Only an attested AAGUID (see
    /// `AuthenticatorTrust`) is a fact: the deny list refuses attested models on it and lets
    /// claims through (a claim proves nothing either way); a non-empty allow list refuses every
    /// claim and every attested model not on it.
    func checkAuthenticator(aaguid: [UInt8], attested: Bool) throws(APIError) {
        let model = AuthenticatorMetadata.text(aaguid: aaguid).flatMap(UUID.init(uuidString:))
        if attested, let model, authenticatorDeny.contains(model) {
            throw APIError(.authenticatorNotAllowed, "This server does not accept this authenticator model.")
        }
        guard !authenticatorAllow.isEmpty else { return }
        guard attested, let model else {
            throw APIError(
                .authenticatorNotAllowed,
                "This server accepts only listed authenticator models, proven by an attestation it can verify.")
        }
        guard authenticatorAllow.contains(model) else {
            throw APIError(.authenticatorNotAllowed, "This server does not accept this authenticator model.")
        }
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
