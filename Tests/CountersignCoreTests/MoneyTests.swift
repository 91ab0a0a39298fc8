import CountersignCore
import Testing

@Suite("Money and phone numbers")
struct MoneyTests {
    @Test("cashback is 1%, rounded down to the minor unit", arguments: [(500, 5), (99, 0), (199, 1), (50_000_000, 500_000)] as [(Int64, Int64)])
    func cashback(amount: Int64, expected: Int64) {
        #expect(TopUpLimits.cashback(for: amount) == expected)
    }

    @Test("phone numbers: digits with an optional +, spaces and dashes dropped")
    func phones() {
        #expect(PhoneNumber("0801 234-5678")?.value == "08012345678")
        #expect(PhoneNumber("+2348012345678")?.value == "+2348012345678")
        for bad in ["", "123456", "1234567890123456", "08012345678+", "0801234567a", "٠٨٠١٢٣٤٥٦٧٨", "+ 123"] {
            #expect(PhoneNumber(bad) == nil, "\(bad)")
        }
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
        let entry = try LedgerEntry.transfer(kind: "k", reference: "r", amount: 7, from: "a", to: "b")
        #expect(entry.postings == [Posting(accountId: "a", amount: -7), Posting(accountId: "b", amount: 7)])
        #expect(throws: LedgerError.zeroPosting) { try LedgerEntry.transfer(kind: "k", reference: "r", amount: 0, from: "a", to: "b") }
        #expect(throws: LedgerError.zeroPosting) { try LedgerEntry.transfer(kind: "k", reference: "r", amount: -7, from: "a", to: "b") }
    }
}
