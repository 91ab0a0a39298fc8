import CountersignAPI
import CountersignCore
import CountersignStore

extension TransferService {
    /// What the server can refuse before a quote is shown and a signature asked for: a payee with
    /// no wallet (or one that never confirmed its number), and an amount with its fees over the
    /// balance. The worker and the authorization check again: a balance can change meanwhile.
    func ensurePayable(
        payerId: String, payee: PhoneNumber, request: CreateTransferRequest, on sql: any SQLExecutor
    ) async throws {
        let fees = configuration.feeSchedule.fees(amount: request.amount, currency: request.currency) ?? []
        let total = fees.reduce(request.amount) { $0 + $1.amount }
        let found = try await sql.users.find(phone: payee.value)
        let balance = try await sql.ledger.balance(
            userId: payerId, kind: .wallet, currency: request.currency)
        guard let found else {
            throw APIError(
                .payeeNotFound,
                "No Countersign wallet is registered to \(payee.value). Check the number, or ask them to sign up.")
        }
        guard found.phoneVerifiedAt != nil else {
            throw APIError(
                .payeeUnverified,
                "\(payee.value) has not confirmed its number on Countersign yet: ask them to sign in once.")
        }
        guard balance >= total else {
            throw APIError(
                .insufficientFunds,
                "Your balance is too low for this amount and its fees. Lower the amount or add money first.")
        }
        let now = clock.nowMillis()
        try await limits.checkOutgoing(userId: payerId, currency: request.currency, amount: total, now: now, on: sql)
        try await limits.checkIncoming(
            userId: found.id, currency: request.currency, amount: request.amount, now: now, on: sql)
    }

    /// The spending limits, as configured.
    var limits: SpendingLimits { SpendingLimits(tiers: configuration.limitTiers) }
}
