import CountersignAPI
import CountersignClient
import CountersignCore

/// One scenario's verdict for the summary table.
struct DemoCheck: Sendable {
    let scenario: String
    let passed: Bool
    let detail: String
}

/// The demo's eight payments — five transfers and top-ups, three marketplace checkouts — each run
/// through the terminal's screens and then checked against the server: status and balances.
enum DemoScenarios {
    static func run(server: EmbeddedServer, directory: String) async throws -> [DemoCheck] {
        print("── Setting up ──")
        let ada = try await DemoUser.create(
            name: "Ada", phone: "08030000001", accountPIN: "4827", localPIN: "2468", server: server,
            directory: directory + "/ada")
        let bola = try await DemoUser.create(
            name: "Bola", phone: "08030000002", accountPIN: "6193", localPIN: "1357", server: server,
            directory: directory + "/bola")
        let (_, funded) = try await server.services.wallets.fund(
            phone: ada.phone, amount: 500_000, reference: "demo-funding")
        print("  Operator funded Ada's wallet: balance \(Formatting.money(funded, "NGN"))")
        let payments = [
            try await transfer(
                "(a) transfer: fees accepted, biometric", ada, bola, accept: true, .approve, pins: [ada.localPIN]
            ) { $0.succeeded },
            try await transfer("(b) transfer: fees declined", ada, bola, accept: false, .approve, pins: []) {
                if case .details(.declined(let document)) = $0 { document.status == .declined } else { false }
            },
            try await transfer(
                "(c) transfer: biometric denied, wrong PIN", ada, bola, accept: true, .deny, pins: ["0000", nil]
            ) {
                if case .verdict(.abandoned) = $0 { true } else { false }
            },
            try await airtime(
                "(d) airtime: biometric", ada, .approve, pins: [ada.localPIN], accountPIN: nil, expect: .biometric),
            try await airtime(
                "(e) airtime: biometric unavailable, account PIN", ada, .unavailable, pins: [],
                accountPIN: ada.accountPIN,
                expect: .pin(reason: .localAuth(.notAvailable))
            ),
        ]
        return payments + (try await DemoCheckouts.run(server: server, buyer: ada, seller: bola))
    }

    /// A transfer of 1,000.00 from `payer` to `payee`; money moves only when `expected` is a success.
    private static func transfer(
        _ scenario: String, _ payer: DemoUser, _ payee: DemoUser, accept: Bool, _ biometric: BiometricSimulation,
        pins: [String?],
        expected: (TransferFlow.Outcome) -> Bool
    ) async throws -> DemoCheck {
        print("\n═══ \(scenario) ═══")
        let before = (try await payer.balance(), try await payee.balance())
        let (authenticator, signer) = try LocalAuthOptions.make(
            profile: payer.profile, biometric: biometric, prompt: ScriptedPINs(pins), devicePINFallback: true)
        let request = CreateTransferRequest(payeePhone: payee.phone, amount: 100_000, currency: "NGN", note: "demo")
        let ending = await TerminalPayments.transfer(
            api: payer.api, authenticator: authenticator, signer: signer, request: request
        ) { _ in
            TerminalInput.confirm("Continue?", preset: accept)
        }
        LocalAuthOptions.recordSignCount(signer, in: payer.profile)
        let after = (try await payer.balance(), try await payee.balance())
        let moved = (payer: before.0 - after.0, payee: after.1 - before.1)
        // An abandoned authorization must also have ended the transfer on the server, not left it to lapse.
        var serverStatus: TransferStatus?
        if case .verdict(.abandoned(let id, _)) = ending.outcome {
            serverStatus = try await payer.api.transfer(id: id).status
        }
        let wanted: (Int64, Int64)
        if case .verdict(.succeeded(let document)) = ending.outcome, let quote = document.quote {
            wanted = (quote.total, quote.amount)
        } else {
            wanted = (0, 0)
        }
        let passed =
            expected(ending.outcome) && moved == (wanted.0, wanted.1) && (serverStatus ?? .cancelled) == .cancelled
        let detail =
            "\(TransferScreens.summary(ending.outcome)); payer −\(Formatting.money(moved.payer, "NGN")), payee +\(Formatting.money(moved.payee, "NGN"))"
        return DemoCheck(
            scenario: scenario, passed: passed,
            detail: detail + (serverStatus.map { "; server says \($0.rawValue)" } ?? ""))
    }

    /// A 500.00 MTN top-up for Bola's number paid by `payer`, authorized as `expect` says.
    private static func airtime(
        _ scenario: String, _ payer: DemoUser, _ biometric: BiometricSimulation, pins: [String?], accountPIN: String?,
        expect: AirtimePayment.Authorization
    ) async throws -> DemoCheck {
        print("\n═══ \(scenario) ═══")
        let before = try await payer.balance()
        let (authenticator, signer) = try LocalAuthOptions.make(
            profile: payer.profile, biometric: biometric, prompt: ScriptedPINs(pins), devicePINFallback: false)
        let intent = AuthenticationOptionsRequest(
            amount: 50_000, productCode: AirtimeNetwork.mtn.productCode, recipientPhone: "08030000002",
            supplierSlug: "mtn")
        let receipt = try await TerminalPayments.airtime(
            api: payer.api, authenticator: authenticator, signer: signer, intent: intent
        ) { _ in
            print(
                "  Account PIN: \(accountPIN.map { String(repeating: "•", count: $0.count) } ?? "not expected; cancelled")"
            )
            return accountPIN
        }
        LocalAuthOptions.recordSignCount(signer, in: payer.profile)
        let after = try await payer.balance()
        guard let receipt else { return DemoCheck(scenario: scenario, passed: false, detail: "no receipt: cancelled") }
        let passed =
            receipt.authorization == expect && receipt.topUp.data.status == WalletTransactionStatus.completed.rawValue
            && before - after == intent.amount && receipt.topUp.data.balance == after
        let how = receipt.authorization == .biometric ? "biometric" : "account PIN"
        return DemoCheck(
            scenario: scenario, passed: passed,
            detail: "\(receipt.topUp.data.status) by \(how); balance −\(Formatting.money(before - after, "NGN"))")
    }
}
