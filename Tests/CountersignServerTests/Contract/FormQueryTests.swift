import Foundation
import Testing

@testable import CountersignServer

@Suite("Form query decoding")
struct FormQueryTests {
    /// What the decoder replaced: Foundation, which every value used to go through.
    private static func foundation(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    @Test(
        "a value decodes as Foundation decoded it: + is a space, %2B a plus, UTF-8 escapes; a broken escape or invalid UTF-8 is nil",
        arguments: [
            "08012345678", "", "+2348012345678", "%2B234+801", "a+b+c", "%E2%82%A6500", "%e2%82%a6", "%", "%4",
            "%G0", "%0G", "abc%", "%FF", "%C3", "%C3%A9", "100%25", "%00", "%0A", "caf%C3%A9+au+lait", "₦ raw",
            "%2", "++", "%20%20",
        ])
    func decode(_ text: String) {
        #expect(FormQuery.decode(Substring(text)) == Self.foundation(Substring(text)), "\(text)")
    }

    @Test("known values: the plus, the escaped plus, the naira sign, and refusals")
    func known() {
        #expect(FormQuery.decode("+234+801") == " 234 801")
        #expect(FormQuery.decode("%2B2348012345678") == "+2348012345678")
        #expect(FormQuery.decode("%E2%82%A6") == "₦")
        #expect(FormQuery.decode("%E2%82") == nil)
        #expect(FormQuery.decode("%zz") == nil)
        #expect(FormQuery.decode("50%") == nil)
    }
}
