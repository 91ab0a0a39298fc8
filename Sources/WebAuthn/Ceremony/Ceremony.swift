/// Checks on authenticatorData shared by registration (§7.1) and authentication (§7.2).
enum Ceremony {
    /// §7.1 step 13 / §7.2 step 15: the rpIdHash must be SHA-256 of the RP ID.
    static func checkRPIDHash(_ authData: AuthenticatorData, _ relyingParty: RelyingParty) throws(WebAuthnError) {
        guard authData.rpIdHash.elementsEqual(relyingParty.idHash) else {
            throw WebAuthnError(.rpIdHashMismatch, "authenticatorData is not scoped to RP ID \(relyingParty.id)")
        }
    }

    /// §7.1 steps 14–17 / §7.2 steps 16–18: UP, UV when required, and BE/BS consistency.
    static func checkUserFlags(_ flags: AuthenticatorFlags, userVerificationRequired: Bool) throws(WebAuthnError) {
        guard flags.userPresent else {
            throw WebAuthnError(.userNotPresent, "the UP flag is clear")
        }
        if userVerificationRequired, !flags.userVerified {
            throw WebAuthnError(.userNotVerified, "user verification was required and the UV flag is clear")
        }
        // §6.1: BS may only be set when BE is.
        if flags.backupState, !flags.backupEligible {
            throw WebAuthnError(.invalidBackupFlags, "BS is set while BE is clear")
        }
    }
}
