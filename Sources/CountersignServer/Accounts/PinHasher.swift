import CountersignCodec
import Crypto
import CryptoExtras

/// Stores PINs only as a salted, peppered, slow hash: `pbkdf2-sha256$ROUNDS$SALT$HASH`.
///
/// A 4–6 digit PIN has at most a million values, so a stolen database alone must not be enough to
/// try them offline: the PIN is first keyed with a server-side pepper (HMAC-SHA256) that lives
/// outside the database, then stretched with PBKDF2.
package struct PinHasher: Sendable {
    private let pepper: SymmetricKey
    private let rounds: Int
    private let pool: PinHashPool

    package init(pepper: [UInt8], rounds: Int, pool: PinHashPool) {
        self.pepper = SymmetricKey(data: pepper)
        self.rounds = rounds
        self.pool = pool
    }

    /// Whether `pin` has the accepted shape: 4 to 6 ASCII digits.
    package static func isWellFormed(_ pin: String) -> Bool {
        (4...6).contains(pin.utf8.count) && pin.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A new hash of `pin` with a fresh salt. Runs on the hashing pool: it is slow on purpose.
    /// Throws `PinHashRefused` when the pool is full.
    package func hash(_ pin: String) async throws -> String {
        let salt = SecureRandom.bytes(16)
        let derived = try await derive(pin, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(derived))"
    }

    /// Whether `pin` matches `stored`, compared in constant time. Throws `PinHashRefused`, judging
    /// nothing, when the pool is full or the hash would start after `deadline` (epoch milliseconds).
    package func verify(_ pin: String, against stored: String, startBy deadline: Int64? = nil) async throws -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let storedRounds = Int(parts[1]),
            let salt = Base64URL.decode(String(parts[2])), let expected = Base64URL.decode(String(parts[3]))
        else { return false }
        let derived = try await derive(pin, salt: salt, rounds: storedRounds, startBy: deadline)
        return ConstantTime.equal(derived, expected)
    }

    private func derive(_ pin: String, salt: [UInt8], rounds: Int, startBy deadline: Int64? = nil) async throws
        -> [UInt8]
    {
        let peppered = Array(HMAC<SHA256>.authenticationCode(for: Array(pin.utf8), using: pepper))
        return try await pool.run(startBy: deadline) {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: peppered, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds
            )
            return key.withUnsafeBytes { Array($0) }
        }
    }
}
