import CountersignCodec
import Testing
import WebAuthn

/// The decoder's bounds: what WebAuthn needs passes, anything bigger is refused as malformed, not parsed slowly.
@Suite("CBOR limits")
struct CBORLimitTests {
    private func code(_ bytes: [UInt8]) -> WebAuthnError.Code? {
        TestSupport.error { () throws(WebAuthnError) in try CBORDecoder.decode(bytes) }?.code
    }

    /// A map header for `count` entries, then unsigned keys 0..<count each mapped to 0.
    private func integerMap(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = count < 24 ? [0xA0 | UInt8(count)] : [0xB9, UInt8(count >> 8), UInt8(count & 0xFF)]
        for key in 0..<count {
            bytes += CBOREncoder.encode(.unsigned(UInt64(key))) + [0x00]
        }
        return bytes
    }

    private func array(_ count: Int) -> [UInt8] {
        [0x99, UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 0x00, count: count)
    }

    @Test("a map of 3,000 integer keys (a 12 KB attestation object) is refused as malformed_cbor")
    func hugeMap() {
        let bytes = integerMap(3000)
        #expect(bytes.count < 12_000)
        #expect(code(bytes) == .malformedCBOR)
    }

    @Test("maps and arrays up to the limit decode; one entry more is refused")
    func entryLimits() throws {
        #expect(
            try CBORDecoder.decode(integerMap(CBORDecoder.maximumMapEntries)).mapValue?.count
                == CBORDecoder.maximumMapEntries)
        #expect(code(integerMap(CBORDecoder.maximumMapEntries + 1)) == .malformedCBOR)
        #expect(
            try CBORDecoder.decode(array(CBORDecoder.maximumArrayItems)).arrayValue?.count
                == CBORDecoder.maximumArrayItems)
        #expect(code(array(CBORDecoder.maximumArrayItems + 1)) == .malformedCBOR)
    }

    @Test("input above the size limit is refused before decoding")
    func inputSize() {
        let size = CBORDecoder.maximumInputSize + 1
        let bytes: [UInt8] =
            [0x5A] + withUnsafeBytes(of: UInt32(size - 5).bigEndian, Array.init)
            + [UInt8](repeating: 1, count: size - 5)
        #expect(bytes.count == size)
        #expect(code(bytes) == .malformedCBOR)
        let error = TestSupport.error { () throws(WebAuthnError) in try CBORDecoder.decodePrefix(bytes, at: 0) }
        #expect(error?.code == .malformedCBOR)
    }

    @Test(
        "duplicate keys are refused, also when one is not in shortest form",
        arguments: [
            "a2 01 00 01 00", // 1, 1
            "a2 01 00 18 01 00", // 1, 1 in two-byte form
            "a2 20 00 38 00 00", // -1, -1 in two-byte form
            "a2 61 61 00 78 01 61 00", // "a", "a" with a one-byte length
            "a2 82 01 02 00 82 01 18 02 00", // [1, 2] twice
            "a2 f9 3c 00 00 fb 3f f0 00 00 00 00 00 00 00", // 1.0 as half and as double
        ])
    func duplicateKeys(hex: String) {
        #expect(code(TestSupport.hex(hex.replacingOccurrences(of: " ", with: ""))) == .malformedCBOR, "\(hex)")
    }

    @Test("keys that differ only in type or sign are not duplicates")
    func distinctKeys() throws {
        let map = try CBORDecoder.decode(TestSupport.hex("a4010020006101004101" + "00"))
        #expect(map.mapValue?.count == 4)
    }

    @Test("a registration whose attestation object holds a 3,000-entry map is a 400-class refusal")
    func registrationWithHugeMap() {
        let object = CBOREncoder.encode(.map([CBORPair(.text("fmt"), .text("none"))])).dropFirst()
        let bytes = [0xA2] + Array(object) + CBOREncoder.encode(.text("attStmt")) + integerMap(3000)
        let error = TestSupport.error { () throws(WebAuthnError) in
            try RegistrationVerifier(relyingParty: TestSupport.relyingParty).verify(
                clientDataJSON: Array(
                    #"{"type":"webauthn.create","challenge":"AQ","origin":"https://pay.countersign.test"}"#.utf8),
                attestationObject: bytes, rawId: [1], expectedChallenge: [1], userVerificationRequired: false,
                allowedAlgorithms: [.es256])
        }
        #expect(error?.code == .malformedCBOR)
        #expect(error?.code.rawValue.hasPrefix("malformed") == true)
    }
}
