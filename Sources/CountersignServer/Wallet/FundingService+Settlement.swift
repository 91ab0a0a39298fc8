import CountersignAPI
import CountersignCore
import CountersignStore

extension FundingService {
    /// Asks the provider where a pending funding stands (creating its intent first if it has none)
    /// and applies the answer; other fundings as they are.
    func refresh(_ funding: Funding) async throws -> WalletFunding {
        guard funding.status == .pending else { return try await view(funding, intent: nil) }
        let intent: ProviderPaymentIntent
        if let intentId = funding.paymentIntentId {
            intent = try await provider.retrievePaymentIntent(id: intentId)
        } else {
            do {
                // Created now, or again after a crash: the same key returns the same intent.
                intent = try await provider.createPaymentIntent(
                    amount: funding.amount, currency: funding.currency, method: funding.method,
                    paymentMethodId: funding.paymentMethodId, customerId: funding.userId, orderId: funding.id,
                    returnURL: funding.returnURL, idempotencyKey: "funding_\(funding.id)")
            } catch let refused as ProviderError where refused.code != .paymentProviderUnavailable {
                // The provider refused the request itself (a card that is not the user's…): the
                // funding ends and nothing was taken.
                try await settle(
                    funding, intent: nil,
                    failure: ProviderPaymentError(code: refused.code.rawValue, message: refused.message))
                throw APIError(refused.code, refused.message)
            }
        }
        try await settle(funding, intent: intent, failure: nil)
        let current = try await database.read { sql in try await sql.fundings.find(id: funding.id) } ?? funding
        return try await view(current, intent: intent)
    }

    /// Applies the intent's status in one transaction: succeeded → the wallet credited (`credit`);
    /// a failed attempt or a canceled intent → the funding ends with nothing credited; otherwise the
    /// intent id is recorded and it stays pending. Every move is guarded by the funding's status, so
    /// a replayed webhook, a poll and the sweeper racing move it, and credit it, once.
    @discardableResult
    func settle(_ funding: Funding, intent: ProviderPaymentIntent?, failure: ProviderPaymentError?) async throws
        -> Bool
    {
        if let intent, intent.status == .succeeded,
            intent.amount != funding.amount || intent.currency.uppercased() != funding.currency
        {
            // Never credit a payment of another amount: an operator must look.
            throw APIError(
                .paymentMismatch,
                "The provider reports a payment of \(intent.amount) \(intent.currency) for a funding of \(funding.amount) \(funding.currency)."
            )
        }
        let now = clock.nowMillis()
        let outcome: FundingStatus? = try await database.transaction { sql in
            if let intent, funding.paymentIntentId == nil {
                try await sql.fundings.recordIntent(id: funding.id, intentId: intent.id)
            }
            let status: FundingStatus
            var error: ProviderPaymentError?
            switch intent?.status {
            case .succeeded?:
                status = .succeeded
            case .requiresPaymentMethod?, nil:
                // A funding is one attempt: a failed one ends it, and the user starts another.
                (status, error) = (.failed, failure ?? intent?.lastPaymentError ?? Self.canceled)
            case .canceled?:
                (status, error) = (.canceled, Self.canceled)
            case .requiresAction?, .processing?:
                return nil
            }
            guard try await sql.fundings.finish(id: funding.id, status: status, error: error, now: now) else {
                return nil
            }
            _ = try await sql.walletTransactions.finish(
                id: funding.id, status: status.transactionStatus, cashbackEarned: 0,
                externalReference: nil, failureCode: error?.code, now: now)
            if status == .succeeded { try await credit(funding, now: now, on: sql) }
            var finished = funding
            (finished.status, finished.errorCode, finished.updatedAt) = (status, error?.code, now)
            try await WebhookOutbox().recordFunding(finished, on: sql)
            return status
        }
        guard let outcome else { return false }
        metrics.payment(kind: "wallet_funding", outcome: outcome == .succeeded ? "completed" : outcome.rawValue)
        return true
    }

    /// The one place a funding's money reaches the wallet, in the transaction that moved it to
    /// `succeeded`: provider clearing → the user's wallet in its currency.
    func credit(_ funding: Funding, now: Int64, on sql: any SQLExecutor) async throws {
        let wallet = try await sql.ledger.openAccount(
            userId: funding.userId, kind: .wallet, currency: funding.currency, now: now)
        try await sql.ledger.post(
            .transfer(
                kind: .walletFunding, reference: funding.id, amount: funding.amount,
                from: SystemAccount.providerClearing(funding.currency), to: wallet),
            now: now)
    }

    static let canceled = ProviderPaymentError(code: "payment_canceled", message: "The payment was canceled.")

    /// The funding as the API shows it, with the wallet's balance now.
    func view(_ funding: Funding, intent: ProviderPaymentIntent?) async throws -> WalletFunding {
        let balance = try await database.read { sql in
            try await sql.ledger.balance(userId: funding.userId, kind: .wallet, currency: funding.currency)
        }
        return WalletFunding(
            fundingId: funding.id, status: funding.status.rawValue, amount: funding.amount,
            currency: funding.currency, method: funding.method, paymentStatus: intent?.status.rawValue,
            redirectURL: intent?.status == .requiresAction ? intent?.redirectURL : nil,
            error: funding.errorCode.map { WalletFunding.Failure(code: $0, message: funding.errorMessage ?? "") },
            balance: balance, createdAt: WallClock.iso8601(millis: funding.createdAt))
    }
}
