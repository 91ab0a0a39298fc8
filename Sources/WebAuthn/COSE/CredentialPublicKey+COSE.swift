import CountersignCodec
import Crypto
import CryptoExtras

extension CredentialPublicKey {
    // COSE labels (RFC 9052 §7.1, RFC 9053 §7): kty 1, alg 3; EC2/OKP crv -1, x -2, y -3; RSA n -1, e -2; AKP pub -1.
    private static let ktyOKP: Int64 = 1, ktyEC2: Int64 = 2, ktyRSA: Int64 = 3, ktyAKP: Int64 = 7

    /// Builds a key from a decoded COSE_Key map.
    package init(coseKey: CBORValue) throws(WebAuthnError) {
        guard coseKey.mapValue != nil else { throw Self.malformed("COSE_Key is not a map") }
        guard let kty = coseKey[int: 1]?.intValue else { throw Self.malformed("COSE_Key has no integer kty (1)") }
        // WebAuthn §6.5.1.1: the credential public key MUST contain alg.
        guard let algValue = coseKey[int: 3]?.intValue else { throw Self.malformed("COSE_Key has no integer alg (3)") }
        guard let algorithm = COSEAlgorithm(rawValue: Int(algValue)) else {
            throw WebAuthnError(.unsupportedAlgorithm, "COSE algorithm \(algValue) is not supported")
        }
        switch kty {
        case Self.ktyEC2: self = try Self.ec2(coseKey, algorithm)
        case Self.ktyRSA: self = try Self.rsa(coseKey, algorithm)
        case Self.ktyOKP: self = try Self.okp(coseKey, algorithm)
        case Self.ktyAKP: self = try Self.akp(coseKey, algorithm)
        default: throw WebAuthnError(.unsupportedAlgorithm, "COSE key type \(kty) is not supported")
        }
    }

    private static func malformed(_ reason: String) -> WebAuthnError {
        WebAuthnError(.malformedPublicKey, reason)
    }

    private static func mismatch(_ algorithm: COSEAlgorithm, _ what: String) -> WebAuthnError {
        malformed("algorithm \(algorithm) does not fit \(what)")
    }

    private static func bytes(_ key: CBORValue, _ label: Int64, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = key[int: label]?.bytesValue else {
            throw malformed("COSE_Key has no byte string \(name) (\(label))")
        }
        return value
    }

    private static func ec2(_ key: CBORValue, _ algorithm: COSEAlgorithm) throws(WebAuthnError) -> CredentialPublicKey {
        guard let curve = key[int: -1]?.intValue else { throw malformed("EC2 key has no crv (-1)") }
        let x = try bytes(key, -2, "x")
        let y = try bytes(key, -3, "y")
        // RFC 9053 §7.1: crv 1 = P-256, 2 = P-384, 3 = P-521; each ECDSA algorithm is bound to its curve.
        let (expectedCurve, size): (Int64, Int)
        switch algorithm {
        case .es256, .esp256: (expectedCurve, size) = (1, 32)
        case .es384, .esp384: (expectedCurve, size) = (2, 48)
        case .es512, .esp512: (expectedCurve, size) = (3, 66)
        default: throw mismatch(algorithm, "key type EC2")
        }
        guard curve == expectedCurve else { throw mismatch(algorithm, "curve \(curve)") }
        guard x.count == size, y.count == size else { throw malformed("EC2 coordinates must be \(size) bytes") }
        let point = [0x04] + x + y
        do {
            switch curve {
            case 1:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .p256(try P256.Signing.PublicKey(x963Representation: point)))
            case 2:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .p384(try P384.Signing.PublicKey(x963Representation: point)))
            default:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .p521(try P521.Signing.PublicKey(x963Representation: point)))
            }
        } catch {
            throw malformed("EC2 point is not on the curve")
        }
    }

    private static func rsa(_ key: CBORValue, _ algorithm: COSEAlgorithm) throws(WebAuthnError) -> CredentialPublicKey {
        switch algorithm {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: break
        case .rs1: throw WebAuthnError(.unsupportedAlgorithm, "RS1 (SHA-1) credentials are refused")
        default: throw mismatch(algorithm, "key type RSA")
        }
        let n = try bytes(key, -1, "n")
        let e = try bytes(key, -2, "e")
        do {
            return CredentialPublicKey(algorithm: algorithm, backing: .rsa(try _RSA.Signing.PublicKey(n: n, e: e)))
        } catch {
            throw malformed("RSA key is invalid or shorter than 2048 bits")
        }
    }

    private static func okp(_ key: CBORValue, _ algorithm: COSEAlgorithm) throws(WebAuthnError) -> CredentialPublicKey {
        guard let curve = key[int: -1]?.intValue else { throw malformed("OKP key has no crv (-1)") }
        let x = try bytes(key, -2, "x")
        // RFC 9053 §7.2: crv 6 = Ed25519, 7 = Ed448 (4 and 5 are X25519/X448, for key agreement only).
        switch (curve, algorithm) {
        case (6, .edDSA), (6, .ed25519):
            guard let parsed = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else {
                throw malformed("Ed25519 key must be 32 bytes")
            }
            return CredentialPublicKey(algorithm: algorithm, backing: .ed25519(parsed))
        case (7, .edDSA), (7, .ed448):
            return CredentialPublicKey(algorithm: algorithm, backing: .ed448(try Ed448PublicKey(rawRepresentation: x)))
        case (6, _), (7, _):
            throw mismatch(algorithm, "curve \(curve)")
        default:
            throw WebAuthnError(.unsupportedAlgorithm, "OKP curve \(curve) is not a signature curve")
        }
    }

    private static func akp(_ key: CBORValue, _ algorithm: COSEAlgorithm) throws(WebAuthnError) -> CredentialPublicKey {
        let pub = try bytes(key, -1, "pub")
        do {
            switch algorithm {
            case .mlDSA44:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .mlDSA(try MLDSAPublicKey(.mlDSA44, rawRepresentation: pub)))
            case .mlDSA65:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .mlDSA65(try MLDSA65.PublicKey(rawRepresentation: pub)))
            case .mlDSA87:
                return CredentialPublicKey(
                    algorithm: algorithm, backing: .mlDSA87(try MLDSA87.PublicKey(rawRepresentation: pub)))
            default:
                throw mismatch(algorithm, "key type AKP")
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw malformed("\(algorithm) public key has the wrong size")
        }
    }
}
