import CountersignCodec
import CountersignCore
import Crypto
import WebAuthn

/// The claims of a verification token: a short-lived, single-use permission for one user to pay
/// for one intent.
package struct VerificationClaims: Equatable, Sendable {
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
}

extension VerificationClaims: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("aud", aud)
        object.string("cid", cid)
        object.integer("cool", cool)
        object.string("dig", dig)
        object.integer("exp", exp)
        object.integer("iat", iat)
        object.string("jti", jti)
        object.string("sub", sub)
        object.bool("uv", uv)
    }

}

extension VerificationClaims: ScannedJSON {
    /// The claims of a token's payload, read strictly: one JSON object, each claim at most once and
    /// of its type, the required ones present; unknown members are skipped. Nil otherwise.
    init?(scanning json: inout JSONScanner) {
        var (sub, jti, aud, dig, cid): (String?, String?, String?, String?, String?)
        var (iat, exp, cool): (Int64?, Int64?, Int64?)
        var uv: Bool?
        var members = ScannedMembers()
        let read = members.read(&json) { key, json in
            switch key {
            case "sub": json.read(&sub)
            case "jti": json.read(&jti)
            case "aud": json.read(&aud)
            case "dig": json.read(&dig)
            case "cid": json.read(&cid)
            case "iat": json.read(&iat)
            case "exp": json.read(&exp)
            case "cool": json.read(&cool)
            case "uv": json.readOptional(&uv) && uv != nil
            default: nil
            }
        }
        guard read, let sub, let jti, let aud, let dig, let cid, let iat, let exp else { return nil }
        self.init(sub: sub, jti: jti, iat: iat, exp: exp, aud: aud, dig: dig, cid: cid, uv: uv, cool: cool)
    }
}

/// Issues and checks verification tokens: JWTs (RFC 7519) in compact form, signed with HMAC-SHA-256
/// (`HS256`) under a secret from configuration or the data directory.
///
/// Only what this server issues is read: the header must be `{"alg":"HS256","typ":"JWT"}` (in
/// either member order), byte for byte, so no other algorithm, key id or critical extension is ever
/// considered; the MAC is compared in constant time before the payload is parsed.
package struct VerificationTokens: Sendable {
    static let audience = "countersign:payment"
    /// Longer tokens are refused before any work.
    static let maximumLength = 4096
    /// HMAC-SHA-256 with the key already taken in: each token copies it (the hash states are values).
    private let keyed: HMAC<SHA256>

    /// The header this server writes, base64url.
    private static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    /// Headers accepted: this server's, and the same members in the other order (as tokens issued
    /// by earlier versions may have them).
    private static let acceptedHeaders: [[UInt8]] = [
        Array(header.utf8), Array(Base64URL.encode(Array(#"{"typ":"JWT","alg":"HS256"}"#.utf8)).utf8),
    ]

    package init(secret: [UInt8]) {
        keyed = HMAC(key: SymmetricKey(data: secret))
    }

    /// The MAC of `input` under the secret.
    private func mac(_ input: some Sequence<UInt8>) -> [UInt8] {
        var hmac = keyed
        hmac.update(data: Array(input))
        return Array(hmac.finalize())
    }

    /// A signed token letting `userId` pay once for the intent whose digest is `intentDigest`.
    package func issue(
        userId: String, intentDigest: String, credentialId: String, userVerified: Bool = false,
        keyCoolingUntil: Int64? = nil, now: Int64, lifetimeSeconds: Int64
    ) -> String {
        let claims = VerificationClaims(
            sub: userId, jti: Identifier.make("vt"), iat: now / 1000, exp: now / 1000 + lifetimeSeconds,
            aud: Self.audience, dig: intentDigest, cid: credentialId, uv: userVerified, cool: keyCoolingUntil
        )
        return sign(claims)
    }

    /// The compact token of `claims`.
    func sign(_ claims: VerificationClaims) -> String {
        let signingInput = Self.header + "." + Base64URL.encode(claims.jsonBytes(escaping: .minimal))
        return signingInput + "." + Base64URL.encode(mac(signingInput.utf8))
    }

    /// The claims of a token with a valid signature that has not expired at `now`.
    package func verify(_ token: String, now: Int64) throws(APIError) -> VerificationClaims {
        guard let claims = claims(of: token), claims.aud == Self.audience else {
            throw APIError(.invalidToken, "The verification token is not valid.")
        }
        // Compared in seconds: no multiplication of a value that came in with the request.
        guard claims.exp > now / 1000 else {
            throw APIError(.tokenExpired, "The verification token has expired; authorize again.")
        }
        return claims
    }

    /// The claims of `token` if this server signed it (expiry and audience not judged), else nil.
    func claims(of token: String) -> VerificationClaims? {
        let bytes = Array(token.utf8)
        guard bytes.count < Self.maximumLength, !bytes.contains(UInt8(ascii: "=")) else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, Self.acceptedHeaders.contains(where: { $0.elementsEqual(parts[0]) }),
            let sent = Base64URL.decode(String(decoding: parts[2], as: UTF8.self)),
            ConstantTime.equal(sent, mac(bytes[..<parts[1].endIndex])),
            let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self))
        else { return nil }
        return VerificationClaims.scanned(payload)
    }
}
