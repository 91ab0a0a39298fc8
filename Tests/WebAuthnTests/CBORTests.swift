import CountersignCodec
import Testing
import WebAuthn

@Suite("CBOR")
struct CBORTests {
    private func decode(_ hex: String) throws(WebAuthnError) -> CBORValue {
        try CBORDecoder.decode(TestSupport.hex(hex))
    }

    @Test("decodes RFC 8949 Appendix A examples")
    func appendixA() throws {
        #expect(try decode("00") == .unsigned(0))
        #expect(try decode("1903e8") == .unsigned(1000))
        #expect(try decode("1bffffffffffffffff") == .unsigned(.max))
        #expect(try decode("20") == .int(-1))
        #expect(try decode("3903e7") == .int(-1000))
        #expect(try decode("3bffffffffffffffff") == .negative(.max))
        #expect(try decode("4401020304") == .bytes([1, 2, 3, 4]))
        #expect(try decode("6449455446") == .text("IETF"))
        #expect(try decode("62c3bc") == .text("ü"))
        #expect(try decode("83010203") == .array([.int(1), .int(2), .int(3)]))
        #expect(try decode("a201020304") == .map([CBORPair(.int(1), .int(2)), CBORPair(.int(3), .int(4))]))
        #expect(try decode("f4") == .bool(false))
        #expect(try decode("f6") == .null)
        #expect(try decode("f93c00") == .float(1.0))
        #expect(try decode("f9c400") == .float(-4.0))
        #expect(try decode("fa47c35000") == .float(100000.0))
        #expect(try decode("fb3ff199999999999a") == .float(1.1))
        #expect(try decode("c11a514b67b0") == .tagged(1, .unsigned(1_363_896_240)))
    }

    @Test("encodes in the shortest form and round-trips")
    func encoder() throws {
        #expect(CBOREncoder.encode(.int(23)) == [0x17])
        #expect(CBOREncoder.encode(.int(24)) == [0x18, 0x18])
        #expect(CBOREncoder.encode(.int(-7)) == [0x26])
        #expect(CBOREncoder.encode(.int(-257)) == [0x39, 0x01, 0x00])
        #expect(CBOREncoder.encode(.int(70000)) == [0x1A, 0x00, 0x01, 0x11, 0x70])
        #expect(CBOREncoder.encode(.text("fmt")) == [0x63, 0x66, 0x6D, 0x74])
        let value = CBORValue.map([
            CBORPair(.text("fmt"), .text("none")), CBORPair(.int(-2), .bytes([UInt8](repeating: 7, count: 300))),
            CBORPair(.int(1), .array([.bool(true), .null, .int(Int64.min), .tagged(24, .bytes([1]))])),
        ])
        #expect(try CBORDecoder.decode(CBOREncoder.encode(value)) == value)
    }

    @Test("decodePrefix reports where the item ends")
    func prefix() throws {
        let (value, end) = try CBORDecoder.decodePrefix(TestSupport.hex("ff820102ff"), at: 1)
        #expect(value == .array([.int(1), .int(2)]))
        #expect(end == 4)
    }

    @Test(
        "rejects malformed input with malformed_cbor",
        arguments: [
            "", // nothing
            "18", // truncated argument
            "5b00000000000000ff01", // byte string longer than the input
            "5bffffffffffffffff", // byte string of 2^64 − 1 bytes
            "9bffffffffffffffff00", // array of 2^64 − 1 items
            "bb7fffffffffffffff0000", // huge map
            "8301", // array truncated
            "a10102a1", // map with a dangling key
            "5f4101ff", // indefinite-length byte string
            "9f01ff", // indefinite-length array
            "1c", // reserved additional information
            "fc", // reserved simple encoding
            "f810", // two-byte simple value below 32
            "62c328", // invalid UTF-8
            "a2010201 03", // duplicate map key
            "0000", // trailing bytes
        ])
    func malformed(hex: String) {
        let error = TestSupport.error { () throws(WebAuthnError) in
            try decode(hex.replacingOccurrences(of: " ", with: ""))
        }
        #expect(error?.code == .malformedCBOR, "\(hex): \(String(describing: error))")
    }

    @Test("bounds nesting depth")
    func deepNesting() {
        let shallow = [UInt8](repeating: 0x81, count: CBORDecoder.maximumDepth) + [0x00]
        #expect((try? CBORDecoder.decode(shallow)) != nil)
        for depth in [CBORDecoder.maximumDepth + 1, 10_000] {
            let deep = [UInt8](repeating: 0x81, count: depth) + [0x00]
            #expect(
                TestSupport.error { () throws(WebAuthnError) in try CBORDecoder.decode(deep) }?.code == .malformedCBOR)
        }
        let deepTags = [UInt8](repeating: 0xC1, count: 500) + [0x00]
        #expect(
            TestSupport.error { () throws(WebAuthnError) in try CBORDecoder.decode(deepTags) }?.code == .malformedCBOR)
    }

    @Test("every truncation of a real attestation object fails cleanly")
    func truncatedAttestationObject() throws {
        let vector = try TestSupport.vector("w3c-packed-es256.json")
        let object = try TestSupport.b64(try #require(vector.registration).response.response.attestationObject)
        #expect((try? CBORDecoder.decode(object)) != nil)
        for length in 0..<object.count {
            let error = TestSupport.error { () throws(WebAuthnError) in
                try CBORDecoder.decode(Array(object[0..<length]))
            }
            #expect(error?.code == .malformedCBOR, "prefix of \(length) bytes")
        }
    }

    @Test("map lookups by integer and text key")
    func lookups() throws {
        let value = try decode("a2036161200a")
        #expect(value[int: 3] == .text("a"))
        #expect(value[int: -1]?.intValue == 10)
        #expect(value[text: "x"] == nil)
        #expect(CBORValue.unsigned(.max).intValue == nil)
    }
}
