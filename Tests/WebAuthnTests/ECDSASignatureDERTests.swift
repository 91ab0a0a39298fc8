import Crypto
import Foundation
import Testing
import WebAuthn

@Suite("ECDSA DER signatures")
struct ECDSASignatureDERTests {
    @Test("decodes what swift-crypto encodes, on every curve")
    func roundTrip() throws {
        let message = Array("message".utf8)
        for _ in 0..<50 {
            let p256 = try P256.Signing.PrivateKey().signature(for: message)
            #expect(
                ECDSASignatureDER.raw(Array(p256.derRepresentation), coordinateSize: 32)
                    == Array(p256.rawRepresentation))
            let p521 = try P521.Signing.PrivateKey().signature(for: message)
            #expect(
                ECDSASignatureDER.raw(Array(p521.derRepresentation), coordinateSize: 66)
                    == Array(p521.rawRepresentation))
        }
        let p384 = try P384.Signing.PrivateKey().signature(for: message)
        #expect(
            ECDSASignatureDER.raw(Array(p384.derRepresentation), coordinateSize: 48) == Array(p384.rawRepresentation))
    }

    @Test("pads short integers and strips the sign byte")
    func padding() {
        #expect(
            ECDSASignatureDER.raw(TestSupport.hex("3007020101020200ff"), coordinateSize: 4) == [
                0, 0, 0, 1, 0, 0, 0, 0xFF,
            ])
        #expect(
            ECDSASignatureDER.raw(TestSupport.hex("3006020101020101"), coordinateSize: 4) == [0, 0, 0, 1, 0, 0, 0, 1])
    }

    @Test(
        "refuses anything but one minimal DER encoding",
        arguments: [
            "",
            "300602010102010100", // trailing byte
            "31060201010201 01", // SET instead of SEQUENCE
            "3006020101020201", // s INTEGER length past the end
            "300702020001020101", // non-minimal: 00 01
            "3006020181020101", // negative r
            "30050200020101", // empty INTEGER
            "308106020101020101", // long-form length below 128
            "300b020601020304050602 0101", // r wider than the coordinate
            "3003020101", // s missing
            "3006030101020101", // BIT STRING instead of INTEGER
        ])
    func refusals(hex: String) {
        let bytes = TestSupport.hex(hex.replacingOccurrences(of: " ", with: ""))
        #expect(ECDSASignatureDER.raw(bytes, coordinateSize: 4) == nil, "\(hex)")
    }
}
