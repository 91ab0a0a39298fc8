import CountersignCodec
import CountersignServer
import Crypto
import Foundation
import Testing

/// The verification token's own format: an HS256 JWT this server signs, and nothing else it reads.
@Suite("Verification tokens")
struct VerificationTokenTests {
    static let secret = Array("a secret of thirty-two bytes ....".utf8)
    static let tokens = VerificationTokens(secret: secret)
    /// 2026-11-28T12:00:00Z in milliseconds.
    static let now: Int64 = 1_795_867_200_000

    @Test("a token issued is read back with every claim")
    func roundTrip() throws {
        for (userVerified, cooling) in [(true, Int64?.some(1_795_867_000_123)), (false, nil)] {
            let token = Self.tokens.issue(
                userId: "usr_1", intentDigest: "ZGln", credentialId: "cred_1", userVerified: userVerified,
                keyCoolingUntil: cooling, now: Self.now, lifetimeSeconds: 300)
            let claims = try Self.tokens.verify(token, now: Self.now)
            #expect(claims.sub == "usr_1" && claims.dig == "ZGln" && claims.cid == "cred_1")
            #expect(claims.iat == Self.now / 1000 && claims.exp == Self.now / 1000 + 300)
            #expect(claims.aud == "countersign:payment" && claims.uv == userVerified && claims.cool == cooling)
            #expect(claims.jti.hasPrefix("vt_"))
        }
    }

    @Test("the token is header.payload.HMAC-SHA-256, each part base64url, the claims in key order")
    func format() throws {
        let token = Self.tokens.issue(
            userId: "usr_1", intentDigest: "ZGln", credentialId: "cred_1", userVerified: true,
            keyCoolingUntil: 7, now: Self.now, lifetimeSeconds: 60)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        #expect(Base64URL.decode(parts[0]) == Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
        let jti = try Self.tokens.verify(token, now: Self.now).jti
        #expect(
            claims == #"{"aud":"countersign:payment","cid":"cred_1","cool":7,"dig":"ZGln","exp":1795867260,"#
                + #""iat":1795867200,"jti":""# + jti + #"","sub":"usr_1","uv":true}"#)
        #expect(token == signed(payload: claims))
    }

    @Test("the header's members in the other order, the claims in any order and spacing, unknown ones: read")
    func otherWriters() throws {
        let payload =
            #" { "sub" : "usr_1", "uv": false, "nbf": [1, {"x": null}], "jti":"vt_1","exp":1795867260,"#
            + #" "iat":1795867200,"dig":"ZGln","cid":"cred_1","aud":"countersign:payment" } "#
        let token = signed(header: #"{"typ":"JWT","alg":"HS256"}"#, payload: payload)
        let claims = try Self.tokens.verify(token, now: Self.now)
        #expect(claims.sub == "usr_1" && claims.uv == false && claims.cool == nil && claims.exp == 1_795_867_260)
    }

    @Test("expiry is judged in seconds: valid before exp, expired at it")
    func expiry() throws {
        let token = signed(payload: claimsJSON())
        #expect(throws: Never.self) { try Self.tokens.verify(token, now: 1_795_867_259_999) }
        #expect(code(of: token, now: 1_795_867_260_000) == "token_expired")
    }

    @Test(
        "a token not signed by this server, or not of its header, is refused",
        arguments: [
            // No algorithm, another algorithm, a key id, another type, spaces: only the exact header is read.
            signed(header: #"{"alg":"none","typ":"JWT"}"#, payload: claimsJSON()),
            signed(header: #"{"alg":"none","typ":"JWT"}"#, payload: claimsJSON()).split(separator: ".").dropLast()
                .joined(separator: ".") + ".",
            signed(header: #"{"alg":"HS512","typ":"JWT"}"#, payload: claimsJSON()),
            signed(header: #"{"alg":"HS256","typ":"JWT","kid":"1"}"#, payload: claimsJSON()),
            signed(header: #"{"alg":"HS256"}"#, payload: claimsJSON()),
            signed(header: #"{"alg":"HS256", "typ":"JWT"}"#, payload: claimsJSON()),
            signed(header: #"{"alg":"HS256","crit":["exp"],"typ":"JWT"}"#, payload: claimsJSON()),
            // Another secret.
            signed(payload: claimsJSON(), secret: Array("another secret of 32 bytes .....".utf8)),
        ])
    func foreignTokens(token: String) {
        #expect(code(of: token) == "invalid_token")
    }

    @Test("a malformed token is refused, never trapped on")
    func malformed() {
        let valid = signed(payload: claimsJSON())
        let parts = valid.split(separator: ".").map(String.init)
        let (header, claims, mac) = (parts[0], parts[1], parts[2])
        let changedClaims = Base64URL.encode(Array(claimsJSON(#","uv":true"#).utf8))
        var refused: [String] = ["", ".", "..", "...", header, header + "." + claims, valid + ".", valid + "." + mac]
        refused += [header + ".." + mac, "." + claims + "." + mac]
        // The payload changed under the same MAC; the MAC cut, lengthened, padded; a byte off the alphabet.
        refused += [header + "." + changedClaims + "." + mac, header + "." + claims + "." + mac.dropLast(2)]
        refused += [valid + "AA", valid + "=", header + "=." + claims + "." + mac, valid + "\u{0}"]
        refused += [valid.replacingOccurrences(of: "_", with: "/"), header + "." + claims + "+." + mac]
        // At and over the length limit.
        refused += [
            valid + String(repeating: "A", count: 4096 - valid.utf8.count), String(repeating: "A", count: 1 << 20),
        ]
        // Swapping the base64url alphabet's last two characters changes the MAC's bytes.
        refused = refused.filter { $0 != valid }
        for token in refused {
            #expect(code(of: token) == "invalid_token", "\(token.prefix(80))")
        }
    }

    @Test(
        "a payload signed by this key but not of the claims' shape is refused",
        arguments: [
            "", "null", "[]", #""usr_1""#, "{", claimsJSON() + "{}", claimsJSON() + ",",
            // A claim twice, the same or another value.
            claimsJSON(#","sub":"usr_1""#), claimsJSON(#","exp":1795867260"#), claimsJSON(#","uv":true,"uv":true"#),
            // A claim missing.
            #"{"aud":"countersign:payment","cid":"c","dig":"d","exp":1795867260,"iat":1,"jti":"j"}"#,
            // A claim of another type, or a number that is not an Int64.
            claimsJSON(exp: #""1795867260""#), claimsJSON(exp: "1795867260.0"), claimsJSON(exp: "17958672e3"),
            claimsJSON(exp: "9223372036854775808"), claimsJSON(exp: "-9223372036854775809"),
            claimsJSON(exp: "01795867260"),
            claimsJSON(exp: "null"), claimsJSON(exp: "-"), claimsJSON(#","uv":1"#), claimsJSON(#","uv":null"#),
            claimsJSON(#","cool":"1""#), claimsJSON(#","cool":null"#),
            // Invalid JSON inside a member nobody reads.
            claimsJSON(#","x":[1,]"#), claimsJSON(#","x":"\u00zz""#), claimsJSON(#","x":"\#u{1}""#),
            // Nested past the scanner's depth.
            claimsJSON(#","x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)),
        ])
    func malformedClaims(payload: String) {
        #expect(code(of: signed(payload: payload)) == "invalid_token")
    }

    @Test("another audience is refused; the extreme integers read without a trap")
    func audienceAndRange() throws {
        let other = claimsJSON().replacingOccurrences(of: "countersign:payment", with: "countersign:other")
        #expect(code(of: signed(payload: other)) == "invalid_token")
        let last = try Self.tokens.verify(signed(payload: claimsJSON(exp: "9223372036854775807")), now: Self.now)
        #expect(last.exp == .max)
        #expect(code(of: signed(payload: claimsJSON(exp: "-9223372036854775808"))) == "token_expired")
        #expect(code(of: signed(payload: claimsJSON(exp: "-0"))) == "token_expired")
    }

    private func code(of token: String, now: Int64 = VerificationTokenTests.now) -> String? {
        do {
            _ = try Self.tokens.verify(token, now: now)
            return nil
        } catch {
            return error.code.rawValue
        }
    }
}

/// A token over `payload` as written, with `header` (JSON text), MACed under `secret`.
private func signed(
    header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, secret: [UInt8] = VerificationTokenTests.secret
) -> String {
    let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
    let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: secret))
    return input + "." + Base64URL.encode(mac)
}

/// A payload with every required claim, `exp` a minute after `now`, and `extra` members after them.
private func claimsJSON(_ extra: String = "", exp: String = "1795867260") -> String {
    #"{"aud":"countersign:payment","cid":"cred_1","dig":"ZGln","exp":"# + exp
        + #","iat":1795867200,"jti":"vt_1","sub":"usr_1""# + extra + "}"
}
