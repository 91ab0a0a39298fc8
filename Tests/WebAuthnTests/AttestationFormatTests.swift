import CountersignCodec
import Crypto
import Testing
import WebAuthn

/// Negative checks for each attestation format, made by altering one input of a shared vector that verifies.
@Suite("Attestation statement formats (WebAuthn §8)")
struct AttestationFormatTests {
    static let formats = [
        "w3c-packed-es256.json", "w3c-packed-self-es256.json", "w3c-fido-u2f-es256.json", "w3c-apple-es256.json",
        "w3c-tpm-es256.json", "w3c-android-key-es256.json",
    ]

    /// The verification input of a vector's registration, optionally with another clientDataHash or credential key.
    static func input(_ file: String, clientDataHash: [UInt8]? = nil, keyFrom other: String? = nil) throws
        -> AttestationInput
    {
        let registration = try #require(try TestSupport.vector(file).registration)
        let object = try AttestationObject(try TestSupport.b64(registration.response.response.attestationObject))
        let clientDataJSON = try TestSupport.b64(registration.response.response.clientDataJSON)
        var credential = try #require(object.authenticatorData.attestedCredentialData)
        if let other {
            let otherObject = try AttestationObject(
                try TestSupport.b64(
                    try #require(try TestSupport.vector(other).registration).response.response.attestationObject))
            credential = try #require(otherObject.authenticatorData.attestedCredentialData)
        }
        return AttestationInput(
            format: object.format, statement: object.statement, authData: object.authenticatorData,
            clientDataHash: clientDataHash ?? Array(SHA256.hash(data: clientDataJSON)),
            credentialKey: try CredentialPublicKey(coseKey: credential.publicKey),
            credentialKeyCOSE: credential.publicKey)
    }

    static func verify(_ input: AttestationInput) -> WebAuthnError? {
        TestSupport.error { () throws(WebAuthnError) in
            try AttestationStatementVerifier.verify(input, policy: .verifiedOnly)
        }
    }

    @Test("the untouched statement verifies, with the right attestation type", arguments: formats)
    func untouched(file: String) throws {
        let result = try AttestationStatementVerifier.verify(try Self.input(file), policy: .verifiedOnly)
        let expected: [String: AttestationType] = [
            "w3c-packed-self-es256.json": .selfAttestation, "w3c-apple-es256.json": .anonymizationCA,
            "w3c-tpm-es256.json": .attestationCA,
        ]
        #expect(result.type == expected[file, default: .basic])
        #expect(result.trustPath.isEmpty == (file == "w3c-packed-self-es256.json"))
    }

    @Test("a different clientDataHash breaks every format", arguments: formats)
    func otherClientData(file: String) throws {
        let error = Self.verify(try Self.input(file, clientDataHash: [UInt8](repeating: 7, count: 32)))
        #expect(error?.code == .attestationFailed, "\(String(describing: error))")
    }

    @Test(
        "a credential key other than the attested one is refused",
        arguments: [
            "w3c-apple-es256.json", "w3c-tpm-es256.json", "w3c-android-key-es256.json", "w3c-fido-u2f-es256.json",
            "w3c-packed-self-es256.json",
        ])
    func otherKey(file: String) throws {
        let error = Self.verify(try Self.input(file, keyFrom: "w3c-packed-es256.json"))
        #expect(error?.code == .attestationFailed, "\(String(describing: error))")
    }

    @Test("a certificate from another statement does not verify")
    func swappedCertificate() throws {
        let apple = try Self.input("w3c-apple-es256.json")
        let packed = try Self.input("w3c-packed-es256.json")
        let x5c = try #require(apple.statement[text: "x5c"])
        let statement = CBORValue.map([
            CBORPair(.text("alg"), .int(-7)), CBORPair(.text("sig"), try #require(packed.statement[text: "sig"])),
            CBORPair(.text("x5c"), x5c),
        ])
        let swapped = AttestationInput(
            format: "packed", statement: statement, authData: packed.authData, clientDataHash: packed.clientDataHash,
            credentialKey: packed.credentialKey, credentialKeyCOSE: packed.credentialKeyCOSE)
        #expect(Self.verify(swapped)?.code == .attestationFailed)
    }

    @Test("tpm: wrong version string and foreign pubArea are refused")
    func tpmStructure() throws {
        let tpm = try Self.input("w3c-tpm-es256.json")
        func replacing(_ key: String, with value: CBORValue) throws -> AttestationInput {
            let pairs = try #require(tpm.statement.mapValue).map {
                $0.key.textValue == key ? CBORPair($0.key, value) : $0
            }
            return AttestationInput(
                format: "tpm", statement: .map(pairs), authData: tpm.authData, clientDataHash: tpm.clientDataHash,
                credentialKey: tpm.credentialKey, credentialKeyCOSE: tpm.credentialKeyCOSE)
        }
        #expect(Self.verify(try replacing("ver", with: .text("1.2")))?.code == .malformedAttestation)
        let pubArea = try #require(tpm.statement[text: "pubArea"]?.bytesValue)
        #expect(Self.verify(try replacing("pubArea", with: .bytes(pubArea.dropLast())))?.code == .malformedAttestation)
        var otherPoint = pubArea
        otherPoint[otherPoint.count - 1] ^= 1
        #expect(Self.verify(try replacing("pubArea", with: .bytes(otherPoint)))?.code == .attestationFailed)
        let certInfo = try #require(tpm.statement[text: "certInfo"]?.bytesValue)
        var badMagic = certInfo
        badMagic[0] = 0
        #expect(Self.verify(try replacing("certInfo", with: .bytes(badMagic)))?.code == .attestationFailed)
    }
}
