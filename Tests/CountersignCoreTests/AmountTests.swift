import CountersignCore
import Testing

@Suite("Amounts as people type and read them")
struct AmountTests {
    @Test(
        "naira and euros in, minor units out",
        arguments: [
            ("500", 50_000), ("500.5", 50_050), ("500.50", 50_050), ("0.01", 1), ("1,500.50", 150_050),
            ("₦500", 50_000), ("NGN 500", 50_000), (" 500 ", 50_000), ("0500", 50_000),
            ("10,000,000,000", 1_000_000_000_000),
        ] as [(String, Int64)])
    func parses(typed: String, minor: Int64) throws {
        #expect(try Currency.ngn.parse(typed) == minor)
    }

    @Test("more decimals than the currency has, zero, negative, huge and not-numbers are refused, never trapped")
    func refuses() throws {
        #expect(throws: AmountError.tooManyDecimals("500.505", "NGN", digits: 2)) { try Currency.ngn.parse("500.505") }
        for zero in ["0", "0.00", "-0", "000"] {
            #expect(throws: AmountError.notPositive(zero)) { try Currency.ngn.parse(zero) }
        }
        #expect(throws: AmountError.notPositive("-5")) { try Currency.ngn.parse("-5") }
        for huge in ["10000000000.01", "99999999999999999999999999", String(repeating: "9", count: 400)] {
            #expect(throws: AmountError.tooLarge(huge, maximum: "₦10,000,000,000.00")) { try Currency.ngn.parse(huge) }
        }
        #expect(throws: AmountError.tooLarge("1000.01", maximum: "₦1,000.00")) {
            try Currency.ngn.parse("1000.01", within: 1...100_000)
        }
        #expect(throws: AmountError.tooSmall("0.99", minimum: "₦1.00")) {
            try Currency.ngn.parse("0.99", within: 100...500)
        }
        for nonsense in ["", "abc", "5e3", "1,5", "1,50,000", ".5", "5.", "1.2.3", "٥٠٠", "+5", "€5", "0x10", "5 00"] {
            #expect(throws: AmountError.self, "\(nonsense)") { try Currency.ngn.parse(nonsense) }
        }
        #expect(throws: AmountError.self) { try Currency.eur.parse("₦5") }
        #expect(try Currency.eur.parse("€80") == 8000)
        #expect("\(AmountError.tooManyDecimals("1.234", "NGN", digits: 2))".contains("type at most 2 after the dot"))
    }

    @Test("minor units shown with the currency's sign, grouped, as the web app shows them")
    func formats() {
        #expect(Currency.ngn.format(26_125) == "₦261.25")
        #expect(Currency.ngn.format(150_000_000) == "₦1,500,000.00")
        #expect(Currency.eur.format(8_000) == "€80.00")
        #expect(Currency.ngn.format(-500) == "-₦5.00")
        #expect(Currency.ngn.format(0) == "₦0.00")
        #expect(Currency.ngn.format(Int64.min) == "-₦92,233,720,368,547,758.08")
        #expect(Currency.named("USD").format(123) == "USD 1.23")
        #expect(Currency.ngn.decimal(50_050) == "500.50")
    }
}
