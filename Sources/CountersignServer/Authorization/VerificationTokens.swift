import Foundation
import JWTKit

/// The claims of a verification token: a short-lived, single-use permission for one user to pay
/// for one intent.
package struct VerificationClaims: JWTPayload, Equatable {
    /// The user.
    package var sub: String
    /// Unique id; spent by the payment that uses it.
    package var jti: String
    /// Issued and expiry times, epoch seconds.
    package var iat: Int64
    package var exp: Int64
    /// What it is for: `countersign:payment`.
    package var aud: String
    /// SHA-256 of the canonical intent the device signed, base64url.
    package var dig: String
    /// The credential that signed.
    package var cid: String
    /// Whether the authenticator verified the user (WebAuthn UV): the payment then had two factors
    /// and renews the PIN allowance. Absent in tokens issued before this claim existed.
    package var uv: Bool?
    /// When the cooling-off of the credential that signed ends, epoch milliseconds (set when the key
    /// is registered, never changed): the payment checks the new-device limit without reading the
    /// key again. Absent in tokens issued before this claim existed; the key is read then.
    package var cool: Int64? = nil

    /// Signature and audience are checked here; expiry is checked by `VerificationTokens` against
    /// the server's clock (which tests can move).
    package func verify(using algorithm: some JWTAlgorithm) async throws {
        guard aud == VerificationTokens.audience else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "audience")
        }
    }
}

/// Issues and checks verification tokens (HS256 JWTs keyed with a secret from configuration or
/// the data directory).
package struct VerificationTokens: Sendable {
    static let audience = "countersign:payment"
    private let keys: JWTKeyCollection

    package init(secret: [UInt8]) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
    }

    /// A signed token letting `userId` pay once for the intent whose digest is `intentDigest`.
    package func issue(
        userId: String, intentDigest: String, credentialId: String, userVerified: Bool = false,
        keyCoolingUntil: Int64? = nil, now: Int64, lifetimeSeconds: Int64
    ) async throws -> String {
        let claims = VerificationClaims(
            sub: userId, jti: Identifier.make("vt"), iat: now / 1000, exp: now / 1000 + lifetimeSeconds,
            aud: Self.audience, dig: intentDigest, cid: credentialId, uv: userVerified, cool: keyCoolingUntil
        )
        return try await keys.sign(claims)
    }

    /// The claims of a token with a valid signature that has not expired at `now`.
    package func verify(_ token: String, now: Int64) async throws(APIError) -> VerificationClaims {
        guard token.utf8.count < 4096, let claims = try? await keys.verify(token, as: VerificationClaims.self) else {
            throw APIError(.invalidToken, "The verification token is not valid.")
        }
        // Compared in seconds: no multiplication of a value that came in with the request.
        guard claims.exp > now / 1000 else {
            throw APIError(.tokenExpired, "The verification token has expired; authorize again.")
        }
        return claims
    }
}
