import Crypto

/// The relying party a ceremony is for: its RP ID, display name and the origins allowed to run ceremonies.
public struct RelyingParty: Sendable {
    /// The RP ID, a registrable domain such as `example.org` or `localhost`.
    public var id: String {
        didSet { idHash = Self.hash(id) }
    }
    /// The human-palatable name shown by authenticators.
    public var name: String
    /// Exact-match allow-list of origins: web origins (`https://example.org`) and native ones (`android:apk-key-hash:…`).
    public var origins: Set<String>
    /// Whether ceremonies from cross-origin iframes (`crossOrigin: true`, `topOrigin`) are accepted. Default false.
    public var allowCrossOrigin: Bool
    /// SHA-256 of `id`, computed once: authenticatorData's rpIdHash must equal it.
    package private(set) var idHash: [UInt8]

    /// Creates a relying party.
    public init(id: String, name: String, origins: Set<String>, allowCrossOrigin: Bool = false) {
        self.id = id
        self.name = name
        self.origins = origins
        self.allowCrossOrigin = allowCrossOrigin
        self.idHash = Self.hash(id)
    }

    private static func hash(_ id: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(id.utf8)))
    }
}
