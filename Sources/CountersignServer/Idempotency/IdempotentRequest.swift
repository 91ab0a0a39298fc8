import Crypto
import HTTPTypes
import WebAuthn

/// An `Idempotency-Key` and the fingerprint of the request it came with: the one way every endpoint
/// that takes the header reads the key, tells a retry from a reuse, and answers a key it has seen.
///
/// Keys live in `idempotency_keys`, one space per user whatever the endpoint (as Stripe's do): a key
/// used for a top-up and then for a transfer is a reuse (422), never a second request.
package struct IdempotentRequest: Sendable {
    package let key: String
    /// SHA-256 of the endpoint's canonical form of the request, base64url. It leaves out every secret
    /// (PIN, verification token, signature), so a stored fingerprint cannot be inverted to one and a
    /// retry answers the same whatever secret it carries.
    package let fingerprint: String

    /// The request's key with the fingerprint of `canonical`.
    package init(key: String, canonical: some Sequence<UInt8>) {
        self.key = key
        self.fingerprint = Base64URL.encode(Array(SHA256.hash(data: Array(canonical))))
    }

    /// The request's `Idempotency-Key`, or nil if it sent none; 400 `invalid_idempotency_key` unless
    /// it is 1 to 255 bytes.
    package static func key(in headers: HTTPFields) throws(APIError) -> String? {
        guard let key = headers[.idempotencyKey] else { return nil }
        guard (1...255).contains(key.utf8.count) else {
            throw APIError(.invalidIdempotencyKey, "Idempotency-Key must be 1 to 255 characters.")
        }
        return key
    }

    /// A claim this old that never moved money belonged to a request that died; a retry takes it over.
    /// (A claim whose process is gone is taken over at once; this is for claims that name no owner.)
    package static let abandonedClaimMillis: Int64 = 5 * 60 * 1000

    /// 409: a request with this key is still running (or its money awaits settlement).
    package static let inFlight = APIError(
        .idempotencyInFlight, "A request with this Idempotency-Key is still being processed.")
    /// 422: the key was used with another request.
    package static let reused = APIError(
        .idempotencyKeyReused, "This Idempotency-Key was used with a different request body.")
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    /// On an answer that repeats (or stands for) the one an earlier request with the key got.
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
