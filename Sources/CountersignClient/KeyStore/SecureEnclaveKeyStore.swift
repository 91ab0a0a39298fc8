#if canImport(Security) && canImport(LocalAuthentication) && canImport(CryptoKit)
    import CryptoKit
    import Foundation
    import LocalAuthentication
    import Security

    /// A sketch of the Apple key store: the P-256 key is made inside the Secure Enclave behind the
    /// current biometric set, and only its opaque, device-bound handle is kept in the keychain.
    ///
    /// UNTESTED: it is not compiled on the Linux CI. It does not conform to `DeviceKeyStore`, whose
    /// `load` returns a `DeviceAuthenticator` holding an exportable key; a Secure Enclave key never
    /// leaves the enclave, so signing with it needs a signing seam in `DeviceAuthenticator` first.
    public struct SecureEnclaveKeyStore: Sendable {
        /// The keychain service the handle is filed under.
        public let service: String

        /// A store filing its handle under `service`.
        public init(service: String = "countersign.device-key") {
            self.service = service
        }

        /// Whether a key handle is in the keychain.
        public func exists() -> Bool {
            SecItemCopyMatching(query(returning: false) as CFDictionary, nil) == errSecSuccess
        }

        /// A new enclave key usable only after a biometric check on this device.
        public func create(context: LAContext) throws -> SecureEnclave.P256.Signing.PrivateKey {
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet], &error
                )
            else { throw DeviceKeyStoreError.storageFailed("access control: \(String(describing: error))") }
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            var item = query(returning: false)
            item[kSecValueData as String] = key.dataRepresentation
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw DeviceKeyStoreError.storageFailed("SecItemAdd \(status)") }
            return key
        }

        /// The enclave key, bound to `context` (which carries the biometric check).
        public func load(context: LAContext) throws -> SecureEnclave.P256.Signing.PrivateKey {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query(returning: true) as CFDictionary, &result)
            guard status != errSecItemNotFound else { throw DeviceKeyStoreError.notFound }
            guard status == errSecSuccess, let handle = result as? Data else {
                throw DeviceKeyStoreError.storageFailed("SecItemCopyMatching \(status)")
            }
            return try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle, authenticationContext: context)
        }

        /// Removes the handle; the enclave key becomes unreachable.
        public func delete() throws {
            let status = SecItemDelete(query(returning: false) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw DeviceKeyStoreError.storageFailed("SecItemDelete \(status)")
            }
        }

        private func query(returning data: Bool) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: "device-key",
            ]
            if data { query[kSecReturnData as String] = true }
            return query
        }
    }
#endif
