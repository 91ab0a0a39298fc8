/// The flags byte of authenticatorData (WebAuthn §6.1).
public struct AuthenticatorFlags: Sendable, Equatable {
    /// UP, bit 0: the user was present.
    public var userPresent: Bool
    /// UV, bit 2: the user was verified (biometric, PIN).
    public var userVerified: Bool
    /// BE, bit 3: the credential may be backed up (a multi-device passkey).
    public var backupEligible: Bool
    /// BS, bit 4: the credential is currently backed up.
    public var backupState: Bool
    /// AT, bit 6: attested credential data follows.
    public var attestedCredentialData: Bool
    /// ED, bit 7: extension data follows.
    public var extensionData: Bool

    /// Decodes the flags byte. Reserved bits 1 and 5 are ignored (§6.1).
    public init(byte: UInt8) {
        userPresent = byte & 0x01 != 0
        userVerified = byte & 0x04 != 0
        backupEligible = byte & 0x08 != 0
        backupState = byte & 0x10 != 0
        attestedCredentialData = byte & 0x40 != 0
        extensionData = byte & 0x80 != 0
    }

    /// Creates flags from their values.
    public init(
        userPresent: Bool = false, userVerified: Bool = false, backupEligible: Bool = false,
        backupState: Bool = false, attestedCredentialData: Bool = false, extensionData: Bool = false
    ) {
        self.userPresent = userPresent
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.attestedCredentialData = attestedCredentialData
        self.extensionData = extensionData
    }

    /// The flags byte.
    public var byte: UInt8 {
        (userPresent ? 0x01 : 0) | (userVerified ? 0x04 : 0) | (backupEligible ? 0x08 : 0)
            | (backupState ? 0x10 : 0) | (attestedCredentialData ? 0x40 : 0) | (extensionData ? 0x80 : 0)
    }
}
