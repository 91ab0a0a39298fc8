import Synchronization

/// Parsed credential public keys by their stored encoding, so a relying party decodes each key once
/// rather than on every assertion (base64url, CBOR and the point's decoding cost about 2 µs for a
/// P-256 key and far more for RSA or ML-DSA). The stored text is the key: the same text always
/// decodes to the same key, so an entry is never stale. At `capacity` entries the cache empties
/// and starts again, which bounds its memory whatever the number of credentials.
public final class CredentialPublicKeyCache: Sendable {
    /// The most keys held at once.
    public let capacity: Int
    private let keys = Mutex<[String: CredentialPublicKey]>([:])

    /// An empty cache holding at most `capacity` keys (at least one).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The key `stored` (base64url of a COSE_Key) encodes: from the cache, else decoded and kept. A
    /// key that does not decode throws, as `CredentialPublicKey(cose:)` does, and is not kept.
    public func key(stored: String) throws(WebAuthnError) -> CredentialPublicKey {
        if let key = keys.withLock({ $0[stored] }) { return key }
        let key = try CredentialPublicKey(cose: Base64URL.decode(stored) ?? [])
        keys.withLock { keys in
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[stored] = key
        }
        return key
    }

    /// How many keys it holds now.
    public var count: Int { keys.withLock { $0.count } }
}
