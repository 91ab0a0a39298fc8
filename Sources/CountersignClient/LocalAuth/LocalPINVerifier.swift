import CountersignCodec

/// The local device PIN, held only as a salted PBKDF2-HMAC-SHA256 hash: checking it needs no
/// network, and the stored form does not give the PIN away without a slow search.
///
/// Stored as `pbkdf2-sha256$ROUNDS$SALT$HASH` (base64url), the same shape the server uses for
/// account PINs, so a device can keep it in its preferences or key store as one string.
public struct LocalPINVerifier: Sendable, Equatable {
    /// Why a stored PIN hash could not be read.
    public enum Malformed: Error, Sendable, Equatable {
        /// The string is not `pbkdf2-sha256$ROUNDS$SALT$HASH` with a positive round count.
        case notAPINHash
    }

    /// The PBKDF2 round count.
    public let iterations: Int
    private let salt: [UInt8]
    private let hash: [UInt8]

    /// Sets a new PIN with a fresh 16-byte salt. Use the default `iterations` outside tests.
    public init(pin: String, iterations: Int = 100_000) {
        self.iterations = max(1, iterations)
        self.salt = SecureRandom.bytes(16)
        self.hash = PBKDF2.sha256(password: Array(pin.utf8), salt: salt, iterations: self.iterations)
    }

    /// Reads a hash written by `encoded`.
    public init(encoded: String) throws {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds > 0,
            let salt = Base64URL.decode(parts[2]), !salt.isEmpty,
            let hash = Base64URL.decode(parts[3]), hash.count == 32
        else { throw Malformed.notAPINHash }
        self.iterations = rounds
        self.salt = salt
        self.hash = hash
    }

    /// The stored form: `pbkdf2-sha256$ROUNDS$SALT$HASH`.
    public var encoded: String {
        "pbkdf2-sha256$\(iterations)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// Whether `pin` is the device PIN; the hashes are compared in constant time. Slow on purpose
    /// (100,000 rounds took 0.8 s in a debug build on the Linux CI), so call it off the main actor.
    public func matches(_ pin: String) -> Bool {
        let candidate = PBKDF2.sha256(password: Array(pin.utf8), salt: salt, iterations: iterations)
        return ConstantTime.equal(candidate, hash)
    }
}
