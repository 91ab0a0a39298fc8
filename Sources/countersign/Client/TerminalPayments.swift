import CountersignAPI
import CountersignClient
import CountersignCore

/// One transfer or airtime purchase through the SDK, its screens printed: what `send`, `airtime`
/// and the demo share.
enum TerminalPayments {
    /// Runs the seed's transfer screens for `request`; `choose` answers "Continue?".
    static func transfer(
        api: CountersignAPIClient, authenticator: any LocalAuthenticator, signer: any TransactionSigner,
        request: CreateTransferRequest, choose: @escaping @Sendable (TransferQuote) async -> Bool
    ) async -> TransferFlow.Ending {
        let flow = TransferFlow(
            repository: TransactionRepository(client: api), authenticator: authenticator, signer: signer)
        TransferScreens(spinner: Spinner()).attach(to: flow)
        print("── Send \(Formatting.money(request.amount, request.currency)) to \(request.payeePhone) ──")
        let ending = await flow.run(request, choose: choose)
        print("Result: \(TransferScreens.summary(ending.outcome))")
        return ending
    }

    /// Buys airtime by the seed's biometric flow in `calls` calls, falling back to the account PIN
    /// from `accountPIN`; prints the seed's result. Nil when the user gave no PIN; refusals are thrown.
    static func airtime(
        api: CountersignAPIClient, authenticator: any LocalAuthenticator, signer: any TransactionSigner,
        intent: AuthenticationOptionsRequest, calls: AirtimePayment.Calls = .two,
        accountPIN: @escaping @Sendable (AirtimePayment.PINFallbackReason) async -> String?
    ) async throws -> AirtimePayment.Receipt? {
        let network = AirtimeNetwork(productCode: intent.productCode)?.displayName ?? intent.productCode
        print("── Buy \(Formatting.money(intent.amount, "NGN")) of \(network) airtime for \(intent.recipientPhone) ──")
        let spinner = Spinner()
        spinner.start("Getting the challenge")
        let payment = AirtimePayment(
            client: api, authenticator: StopsSpinner(inner: authenticator, spinner: spinner), signer: signer,
            calls: calls)
        let receipt: AirtimePayment.Receipt?
        do {
            receipt = try await payment.pay(intent) { reason in
                spinner.stop()
                print("  Biometric path did not finish (\(describe(reason))); using the account PIN")
                return await accountPIN(reason)
            }
        } catch let needed as AirtimePayment.PasskeyRequired {
            spinner.stop()
            print("  Biometric path did not finish (\(describe(needed.reason)))")
            throw CommandFailure(
                "this payment needs your passkey: the account PIN alone pays only small amounts, and only a few "
                    + "times between passkey payments. Nothing was charged. Run it again and approve with the "
                    + "biometric (--biometric approve), or register a key with `countersign device register`.")
        }
        spinner.stop()
        guard let receipt else {
            print("Result: cancelled: no account PIN")
            return nil
        }
        let data = receipt.topUp.data
        let how = receipt.authorization == .biometric ? "biometric" : "account PIN"
        print("── Top-up \(receipt.topUp.success ? "complete" : "failed") (\(how)) ──")
        print("  reference      \(data.transactionId)")
        print("  time           \(Formatting.time(data.timestamp))")
        print("  airtime        \(network) for \(intent.recipientPhone)")
        print("  status         \(data.status)\(receipt.topUp.code.map { " (\($0))" } ?? "")")
        if receipt.topUp.success {
            print("  amount         \(Formatting.money(data.amount, "NGN"))")
        } else {
            print("  amount         \(Formatting.money(data.amount, "NGN")), not taken: your wallet was not charged")
        }
        print("  balance        \(Formatting.money(data.balance, "NGN"))")
        return receipt
    }

    static func describe(_ reason: AirtimePayment.PINFallbackReason) -> String {
        switch reason {
        case .noRegisteredCredential: "no registered device key"
        case .localAuth(.notAvailable): "biometric unavailable"
        case .localAuth(let error): "biometric \(error)"
        case .signing(let error): "the device did not sign: \(error)"
        case .verificationFailed(let code): "the server refused the signature: \(code)"
        }
    }

    /// Stops the "getting the challenge" spinner when the prompt comes up.
    private struct StopsSpinner: LocalAuthenticator {
        let inner: any LocalAuthenticator
        let spinner: Spinner

        func authenticate(reason: String) async throws -> LocalAuthMethod {
            spinner.stop()
            print("  Local authentication: \(reason)")
            return try await inner.authenticate(reason: reason)
        }
    }
}
