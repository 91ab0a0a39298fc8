/// Why the device key could not be created, loaded or kept.
public enum DeviceKeyStoreError: Error, Sendable, Equatable {
    /// There is no device key yet: register the device first.
    case notFound
    /// A device key already exists; delete it before creating another.
    case alreadyExists
    /// The PIN did not unlock the key.
    case wrongPIN
    /// The stored key is unreadable or was altered; the reason says what was wrong.
    case damaged(String)
    /// The file was written by a newer SDK.
    case unsupportedVersion(Int)
    /// The file system refused; the reason names the operation and the error number.
    case storageFailed(String)
}

/// Where the device-bound P-256 credential lives between app launches.
///
/// On Linux the key is sealed under the local PIN (`FileDeviceKeyStore`); on Apple platforms it
/// would live in the Secure Enclave behind biometrics (`SecureEnclaveKeyStore`, a sketch).
public protocol DeviceKeyStore: Sendable {
    /// Whether a device key is stored.
    func exists() -> Bool
    /// Creates and stores a fresh credential for `rpId` and `origin`, sealed under `pin`.
    func create(rpId: String, origin: String, pin: String) throws -> DeviceAuthenticator
    /// Unseals the stored credential with `pin`; its counter continues from the last recorded one.
    func load(pin: String) throws -> DeviceAuthenticator
    /// Records the credential's counter after signing, so the next load does not reuse a value.
    func recordSignCount(_ signCount: UInt32) throws
    /// Removes the stored credential; nothing happens when there is none.
    func delete() throws
}
