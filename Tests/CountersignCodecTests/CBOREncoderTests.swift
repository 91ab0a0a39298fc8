import CountersignCodec
import Testing

@Suite("CBOR encoder")
struct CBOREncoderTests {
    @Test(
        "writes each argument in the shortest of its five forms (RFC 8949 §4.2.1)",
        arguments: [
            (UInt64(0), [0x00]), (23, [0x17]), (24, [0x18, 0x18]), (0xFF, [0x18, 0xFF]), (0x100, [0x19, 0x01, 0x00]),
            (0xFFFF, [0x19, 0xFF, 0xFF]), (0x1_0000, [0x1A, 0x00, 0x01, 0x00, 0x00]),
            (0xFFFF_FFFF, [0x1A, 0xFF, 0xFF, 0xFF, 0xFF]),
            (0x1_0000_0000, [0x1B, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]),
        ] as [(UInt64, [UInt8])])
    func shortestForm(value: UInt64, encoded: [UInt8]) {
        #expect(CBOREncoder.encode(.unsigned(value)) == encoded)
    }

    @Test("negative integers, strings and the simple values")
    func scalars() {
        #expect(CBOREncoder.encode(.int(-1)) == [0x20])
        #expect(CBOREncoder.encode(.int(-7)) == [0x26])
        #expect(CBOREncoder.encode(.int(-257)) == [0x39, 0x01, 0x00])
        #expect(CBOREncoder.encode(.int(.min)) == [0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(CBOREncoder.encode(.bytes([1, 2])) == [0x42, 0x01, 0x02])
        #expect(CBOREncoder.encode(.text("fmt")) == [0x63, 0x66, 0x6D, 0x74])
        #expect(CBOREncoder.encode(.bool(false)) == [0xF4])
        #expect(CBOREncoder.encode(.bool(true)) == [0xF5])
        #expect(CBOREncoder.encode(.null) == [0xF6])
        #expect(CBOREncoder.encode(.simple(16)) == [0xF0])
        #expect(CBOREncoder.encode(.simple(255)) == [0xF8, 0xFF])
        #expect(CBOREncoder.encode(.float(1.5)) == [0xFB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0])
    }

    @Test("maps keep the caller's key order; arrays and tags nest")
    func containers() {
        let map = CBORValue.map([CBORPair(.int(3), .int(-7)), CBORPair(.int(1), .int(2))])
        #expect(CBOREncoder.encode(map) == [0xA2, 0x03, 0x26, 0x01, 0x02])
        #expect(CBOREncoder.encode(.array([.int(1), .array([])])) == [0x82, 0x01, 0x80])
        #expect(CBOREncoder.encode(.tagged(1, .int(0))) == [0xC1, 0x00])
        #expect(map[int: 1] == .int(2) && map[int: 2] == nil)
    }
}
