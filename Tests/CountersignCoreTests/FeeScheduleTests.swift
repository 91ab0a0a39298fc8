import CountersignCore
import Testing

@Suite("Fee schedule")
struct FeeScheduleTests {
    let schedule = FeeSchedule(rules: ["NGN": .init(fixed: 1_000, basisPoints: 50, minimum: 1_500, maximum: 200_000)])

    @Test(
        "fixed plus percentage, rounded half-up to the minor unit",
        arguments: [
            // 0.5% of 1,000,100 = 5,000.5 → 5,001 (half-up), plus 1,000 fixed.
            (Int64(1_000_100), Int64(6_001)),
            // 0.5% of 1,000,099 = 5,000.495 → 5,000.
            (1_000_099, 6_000),
            // 0.5% of 100 = 0.5 → 1, total 1,001 < minimum 1,500: the percentage line takes up the difference.
            (100, 1_500),
            // 0.5% of 100,000,000 = 500,000 → capped at 200,000.
            (100_000_000, 200_000),
        ])
    func totals(amount: Int64, expectedTotal: Int64) throws {
        let fees = try #require(schedule.fees(amount: amount, currency: "NGN"))
        #expect(fees.reduce(0) { $0 + $1.amount } == expectedTotal)
        #expect(fees.first == .init(name: "Transfer fee", amount: 1_000))
        #expect(fees.count == 2)
    }

    @Test("no fee lines of zero; the percentage line names its rate")
    func lines() throws {
        let percentOnly = FeeSchedule(rules: ["EUR": .init(fixed: 0, basisPoints: 125, minimum: 0, maximum: 10_000)])
        #expect(percentOnly.fees(amount: 10_000, currency: "EUR") == [.init(name: "Service fee (1.25%)", amount: 125)])
        #expect(percentOnly.fees(amount: 10, currency: "EUR") == [])
        #expect(FeeSchedule.percent(50) == "0.5%")
        #expect(FeeSchedule.percent(100) == "1%")
        #expect(FeeSchedule.percent(5) == "0.05%")
    }

    @Test("a capped or raised percentage line says so")
    func cappedLabels() throws {
        let capped = try #require(FeeSchedule.standard.fees(amount: 100_000_000, currency: "NGN"))
        #expect(capped.last == .init(name: "Service fee (0.5%, capped at ₦1,990.00)", amount: 199_000))
        let raised = try #require(schedule.fees(amount: 100, currency: "NGN"))
        #expect(raised.last == .init(name: "Service fee (0.5%, raised to the minimum of ₦5.00)", amount: 500))
        let plain = try #require(schedule.fees(amount: 1_000_100, currency: "NGN"))
        #expect(plain.last == .init(name: "Service fee (0.5%)", amount: 5_001))
    }

    @Test("unknown currency, zero, negative and too-large amounts have no quote")
    func outOfRange() {
        #expect(schedule.fees(amount: 1_000, currency: "EUR") == nil)
        #expect(schedule.fees(amount: 0, currency: "NGN") == nil)
        #expect(schedule.fees(amount: -5, currency: "NGN") == nil)
        #expect(schedule.fees(amount: schedule.maximumAmount + 1, currency: "NGN") == nil)
        #expect(schedule.fees(amount: schedule.maximumAmount, currency: "NGN") != nil)
    }

    @Test("inconsistent rules are refused with the currency named")
    func validation() {
        #expect(FeeSchedule.standard.problem == nil)
        #expect(
            FeeSchedule(rules: ["NGN": .init(fixed: 0, basisPoints: 10, minimum: 500, maximum: 100)]).problem
                == "NGN: minimum must not exceed maximum")
        #expect(
            FeeSchedule(rules: ["EUR": .init(fixed: 300, basisPoints: 10, minimum: 0, maximum: 100)]).problem
                == "EUR: fixed must not exceed maximum")
        #expect(FeeSchedule(rules: ["EUR": .init(fixed: -1, basisPoints: 10, minimum: 0, maximum: 100)]).problem != nil)
        #expect(
            FeeSchedule(rules: ["EUR": .init(fixed: 0, basisPoints: 10_001, minimum: 0, maximum: 100)]).problem != nil)
    }
}

@Suite("Transfer quote")
struct TransferQuoteTests {
    let quote = TransferQuote(
        quoteId: "q_1", transferId: "tr_1", payeePhone: "+2348012345678", amount: 50_000,
        fees: [.init(name: "Transfer fee", amount: 1_000), .init(name: "Service fee (0.5%)", amount: 250)],
        totalFees: 1_250, total: 51_250, currency: "NGN", expiresAt: "2026-11-22T10:05:00.000Z"
    )

    @Test("canonical bytes: sorted keys at every level, no white space")
    func canonical() {
        let expected =
            #"{"amount":50000,"currency":"NGN","expiresAt":"2026-11-22T10:05:00.000Z","fees":[{"amount":1000,"name":"Transfer fee"},{"amount":250,"name":"Service fee (0.5%)"}],"payeePhone":"+2348012345678","quoteId":"q_1","total":51250,"totalFees":1250,"transferId":"tr_1"}"#
        #expect(String(decoding: quote.canonicalBytes, as: UTF8.self) == expected)
    }

    @Test("the challenge changes with any field and with the nonce")
    func challengeBinding() {
        let nonce = [UInt8](repeating: 1, count: 32)
        let base = quote.challenge(nonce: nonce)
        var higherFee = quote
        higherFee.fees[1].amount = 251
        var otherPayee = quote
        otherPayee.payeePhone = "+2348012345679"
        #expect(base.count == 32)
        #expect(higherFee.challenge(nonce: nonce) != base)
        #expect(otherPayee.challenge(nonce: nonce) != base)
        #expect(quote.challenge(nonce: [UInt8](repeating: 2, count: 32)) != base)
        #expect(quote.challenge(nonce: nonce) == base)
    }

    @Test("consistency: fee lines sum to totalFees, amount plus fees is total")
    func consistency() {
        #expect(quote.isConsistent)
        var wrongTotal = quote
        wrongTotal.total += 1
        var wrongFees = quote
        wrongFees.totalFees -= 1
        var negativeFee = quote
        negativeFee.fees[0].amount = -1_000
        negativeFee.totalFees = -750
        negativeFee.total = 49_250
        #expect(!wrongTotal.isConsistent)
        #expect(!wrongFees.isConsistent)
        #expect(!negativeFee.isConsistent)
    }
}

@Suite("Transfer status")
struct TransferStatusTests {
    @Test("final statuses allow no move; the happy path is allowed step by step")
    func moves() {
        for status in TransferStatus.allCases where status.isFinal {
            #expect(TransferStatus.allCases.allSatisfy { !status.canMove(to: $0) })
        }
        let path: [TransferStatus] = [
            .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized, .success,
        ]
        for (from, to) in zip(path, path.dropFirst()) { #expect(from.canMove(to: to)) }
        #expect(!TransferStatus.pendingQuote.canMove(to: .authorized))
        #expect(!TransferStatus.authorized.canMove(to: .cancelled))
        #expect(!TransferStatus.authorized.canMove(to: .declined))
    }
}
