import CountersignCore
import Testing

@Suite("Money and phone numbers")
struct MoneyTests {
    @Test(
        "cashback is 1%, rounded down to the minor unit",
        arguments: [(500, 5), (99, 0), (199, 1), (50_000_000, 500_000)] as [(Int64, Int64)])
    func cashback(amount: Int64, expected: Int64) {
        #expect(TopUpLimits.cashback(for: amount) == expected)
    }

    @Test("phone numbers become E.164: one number, one form, however it was written")
    func phones() {
        for written in [
            "08055501234", "0805 550-1234", "+2348055501234", "+234 805 550 1234", "2348055501234", "002348055501234",
            "8055501234",
        ] {
            #expect(PhoneNumber(written)?.value == "+2348055501234", "\(written)")
        }
        #expect(PhoneNumber("+31 6 12345678")?.value == "+31612345678", "another country, with its code")
        #expect(
            PhoneNumber("0805  5501234") == nil && PhoneNumber(" 08055501234") == nil && PhoneNumber("0805-") == nil,
            "one separator, between digits")
        #expect(PhoneNumber("(0805) 5501234") == nil && PhoneNumber("0805.550.1234") == nil)
        #expect(PhoneNumber("0612345678", region: .netherlands)?.value == "+31612345678")
        #expect(PhoneNumber("0612345678") == nil, "nine national digits are not a Nigerian number")
        for bad in [
            "", "123456", "0801234567", "080123456789", "+0123456789", "+1234567890123456", "08012345678+",
            "0801234567a",
            "٠٨٠١٢٣٤٥٦٧٨", "+ 123", "+", "00", String(repeating: "1", count: 40),
        ] {
            #expect(PhoneNumber(bad) == nil, "\(bad)")
        }
    }

    @Test("the start of a number is read as the forms read a whole one, in E.164, eight digits at least")
    func phonePrefixes() {
        for (written, prefix) in [
            ("080312", "+23480312"), ("0803 12", "+23480312"), ("+23480312", "+23480312"),
            ("0023480312", "+23480312"), ("23480312", "+23480312"), ("80312", "+23480312"),
            ("08031234567", "+2348031234567"), ("+2348031234567", "+2348031234567"),
        ] {
            #expect(PhoneNumber.prefix(written) == prefix, "\(written)")
        }
        #expect(PhoneNumber.prefix("0612345", region: .netherlands) == "+31612345", "six national digits make eight")
        for bad in [
            "", "+", "0803", "8031", "+2348031", "00234803", "080312345678", "0080312", "+0803123456", "0803-",
            "0803  12", "+234 803 1a", String(repeating: "1", count: 40), "+1234567890123456",
        ] {
            #expect(PhoneNumber.prefix(bad) == nil, "\(bad)")
        }
    }

    @Test("a display name loses bidi overrides, zero-width and control characters")
    func displayNames() {
        #expect(DisplayText.sanitized("Ada\u{202E}gnp.exe") == "Adagnp.exe")
        #expect(DisplayText.sanitized("  Ada\u{200B}\u{2066} Obi\n\t ") == "Ada Obi")
        #expect(DisplayText.sanitized("Ada\u{2028}Obi\u{0000}") == "AdaObi")
        #expect(DisplayText.sanitized("Adéọlá  Ọ̀ṣun 👩🏾") == "Adéọlá Ọ̀ṣun 👩🏾")
        #expect(DisplayText.sanitized("\u{202E}\u{202E}").isEmpty)
    }

    @Test("every network has a product code that maps back")
    func networks() {
        for network in AirtimeNetwork.allCases {
            #expect(AirtimeNetwork(productCode: network.productCode) == network)
        }
        #expect(AirtimeNetwork.nineMobile.productCode == "AIRTIME_9MOBILE")
        #expect(AirtimeNetwork(productCode: "AIRTIME_mtn") == nil)
    }

    @Test("a transfer is two balanced legs; non-positive amounts are refused")
    func transfer() throws {
        let entry = try LedgerEntry.transfer(kind: .transfer, reference: "r", amount: 7, from: "a", to: "b")
        #expect(entry.postings == [Posting(accountId: "a", amount: -7), Posting(accountId: "b", amount: 7)])
        #expect(throws: LedgerError.zeroPosting) {
            try LedgerEntry.transfer(kind: .transfer, reference: "r", amount: 0, from: "a", to: "b")
        }
        #expect(throws: LedgerError.zeroPosting) {
            try LedgerEntry.transfer(kind: .transfer, reference: "r", amount: -7, from: "a", to: "b")
        }
    }
}
