import Testing
import WebAuthn

@Suite("SHAKE (FIPS 202)")
struct SHAKETests {
    @Test("matches known answers, across block boundaries and in pieces")
    func knownAnswers() {
        var abc128 = SHAKE.shake128(Array("abc".utf8))
        #expect(
            abc128.squeeze(32) == TestSupport.hex("5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"))
        var abc256 = SHAKE.shake256(Array("ab".utf8), Array("c".utf8))
        #expect(
            abc256.squeeze(64)
                == TestSupport.hex(
                    "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
                ))
        let long = Array((0..<512).map { UInt8($0 % 256) })
        var long256 = SHAKE.shake256(long)
        let first = long256.squeeze(3)
        let rest = long256.squeeze(197)
        #expect(
            first + rest
                == TestSupport.hex(
                    "a1d71885b0a841f03d1dc7f2738a15cc984071a17ffed5ecacb9f58720a473be1f2d28b96d543a367c81114206f5af3718e7315b57f290b64d8d29cf437e404c80de4b42b9f529d5cc1ff9e3a0870c35ae9eb9b45498b858a935471a5fcd1ed1a5bfe06067c2adcca86b1210922180536da1c1779da8f3da077139d390d9b1c8c86f69b611761f0f3ddf1e1b89b8826c16357919150df5a9e4c90a836c74d2c4300bc7810dfdca4bd3f330c7efdfa13ad9efffaf0c3c4bf21e3a8ed329cddf3a7407643336ce9874"
                ))
        var long128 = SHAKE.shake128(long)
        #expect(
            Array(long128.squeeze(400).suffix(32))
                == TestSupport.hex("82cf694b47aa92dba1d24cde24937bad87de4eb7d263145c18d0ce38f2a0212e"))
    }
}
