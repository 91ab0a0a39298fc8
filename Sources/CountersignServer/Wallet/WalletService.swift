import CountersignAPI
import CountersignCore
import CountersignStore
import WebAuthn

/// Balances, history and operator funding.
package struct WalletService: Sendable {
    let database: any Database
    let clock: WallClock
    /// The wallet currencies, the primary first (`ServerConfiguration.walletCurrencies`).
    let currencies: [String]
    let phoneRegion: PhoneRegion

    /// The primary wallet's currency: airtime and transfers are in it.
    package var currency: String { currencies[0] }

    /// The largest single funding, in minor units (1,000,000.00).
    package static let maximumFunding: Int64 = 100_000_000

    /// The user's wallet and cashback balances: the primary wallet's at the top level (as before
    /// there were several), every wallet's in `wallets`, read in one snapshot.
    package func wallet(userId: String) async throws -> WalletResponse {
        let wallets = try await database.read { sql in try await balances(userId: userId, on: sql) }
        return WalletResponse(
            balance: wallets[0].balance, cashback: wallets[0].cashback, currency: wallets[0].currency, wallets: wallets)
    }

    /// Every wallet of the user's, the primary first; 0 for one never opened.
    package func balances(userId: String, on sql: any SQLExecutor) async throws -> [WalletBalance] {
        var wallets: [WalletBalance] = []
        for currency in currencies {
            wallets.append(
                WalletBalance(
                    currency: currency,
                    balance: try await sql.ledger.balance(userId: userId, kind: .wallet, currency: currency),
                    cashback: try await sql.ledger.balance(userId: userId, kind: .cashback, currency: currency)))
        }
        return wallets
    }

    /// `currency` if the user holds a wallet in it; 422 `unsupported_currency` otherwise. Absent means
    /// the primary wallet.
    package func walletCurrency(_ currency: String?) throws(APIError) -> String {
        guard let currency else { return self.currency }
        guard currencies.contains(currency) else {
            throw APIError(
                .unsupportedCurrency,
                "currency must be one of the wallet currencies: \(currencies.joined(separator: ", ")).")
        }
        return currency
    }

    /// A page of the user's transactions, newest first. `cursor` is the previous page's `nextCursor`.
    /// With `currency`, only that wallet's.
    package func transactions(userId: String, cursor: String?, limit: Int, currency: String? = nil) async throws
        -> TransactionPage
    {
        guard (1...100).contains(limit) else { throw APIError(.invalidLimit, "limit must be between 1 and 100.") }
        let before = try cursor.map(Self.parseCursor)
        let only = try currency.map { try walletCurrency($0) }
        let rows = try await database.read { sql in
            try await sql.walletTransactions.list(userId: userId, before: before, currency: only, limit: limit + 1)
        }
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { Base64URL.encode(Array("\($0.createdAt)|\($0.id)".utf8)) } : nil
        let transferIds = page.filter { [.transferOut, .transferIn].contains($0.type) }.compactMap(\.externalReference)
        let orderIds = page.filter { [.orderPayment, .orderRefund].contains($0.type) }.compactMap(\.externalReference)
        let parties = try await database.read { sql in
            try await sql.walletTransactions.transfers(ids: transferIds)
                .merging(try await sql.walletTransactions.orders(ids: orderIds)) { transfer, _ in transfer }
        }
        return TransactionPage(
            transactions: page.map { $0.summary(transfer: $0.externalReference.flatMap { parties[$0] }) },
            nextCursor: next)
    }

    static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A cursor is base64url of `createdAt|id` of the last row shown.
    static func parseCursor(_ cursor: String) throws(APIError) -> (Int64, String) {
        // Characters outside base64url are malformed (400); anything else that is not one of ours is
        // unknown (422), as openapi.yaml's Base64URL pattern says.
        guard cursor.utf8.allSatisfy({ Self.base64URLAlphabet.contains($0) }) else {
            throw APIError(.invalidCursor, "cursor must be base64url.")
        }
        guard let bytes = Base64URL.decode(cursor), let text = String(validating: bytes, as: UTF8.self) else {
            throw APIError(.unknownCursor, "cursor must be a nextCursor from an earlier page.")
        }
        // The id in it is compared with stored ids, as text: the rule for text clients send holds
        // (`ControlCharacters`; PostgreSQL cannot compare a NUL).
        guard !ControlCharacters.appear(in: text) else {
            throw APIError(.invalidCursor, "cursor must not decode to control characters.")
        }
        guard let separator = text.firstIndex(of: "|"), let createdAt = Int64(text[..<separator]) else {
            throw APIError(.unknownCursor, "cursor must be a nextCursor from an earlier page.")
        }
        return (createdAt, String(text[text.index(after: separator)...]))
    }

    /// Credits a user's wallet in `currency` (the primary one if nil) from the funding account (the
    /// operator's `wallet fund` command).
    package func fund(phone: String, amount: Int64, currency: String? = nil, reference: String?) async throws -> (
        transactionId: String, balance: Int64
    ) {
        guard let phone = PhoneNumber(phone, region: phoneRegion) else {
            throw APIError(
                .invalidPhone, "phone must be a phone number: +country code and number, or a national number.")
        }
        let currency = try walletCurrency(currency)
        try Self.checkFunding(amount, currency: currency)
        let now = clock.nowMillis()
        return try await database.transaction { sql in
            guard let user = try await sql.users.find(phone: phone.value) else {
                throw APIError(.unknownUser, "No user has phone \(phone.value).")
            }
            return try await credit(
                userId: user.id, amount: amount, currency: currency, reference: reference, now: now, on: sql)
        }
    }

    /// 400 `amount_out_of_range` unless `amount` is a funding this server makes.
    package static func checkFunding(_ amount: Int64, currency: String) throws(APIError) {
        guard (1...Self.maximumFunding).contains(amount) else {
            throw APIError(
                .amountOutOfRange,
                "amount must be between 1 and \(Self.maximumFunding) minor units (at most \(Currency.named(currency).format(Self.maximumFunding)))."
            )
        }
    }

    /// The funding itself, in the caller's transaction: one ledger entry from the funding account to
    /// the user's wallet and its completed `funding` wallet transaction; `wallet fund` and the
    /// operator console both post exactly this. A `reference` already used is 409 `duplicate_reference`
    /// (and the unique index on it refuses a concurrent second one at commit).
    package func credit(
        userId: String, amount: Int64, currency: String, reference: String?, now: Int64, on sql: any SQLExecutor
    ) async throws -> (transactionId: String, balance: Int64) {
        let id = Identifier.make("fund")
        // An operator's reference makes funding idempotent: the same reference never credits twice.
        if let reference, try await sql.walletTransactions.find(type: .funding, externalReference: reference) != nil {
            throw APIError(.duplicateReference, "A funding with reference \(reference) exists already.")
        }
        // Users who signed up before this wallet currency existed have no account in it yet.
        let wallet = try await sql.ledger.openAccount(userId: userId, kind: .wallet, currency: currency, now: now)
        try await sql.ledger.post(
            .transfer(
                kind: .funding, reference: id, amount: amount, from: SystemAccount.funding(currency), to: wallet),
            now: now)
        let funding = WalletTransaction(
            id: id, userId: userId, type: .funding, status: .completed, amount: amount, currency: currency,
            productCode: nil, recipientPhone: nil, supplierSlug: nil, authorizedBy: "operator", cashbackUsed: 0,
            cashbackEarned: 0, externalReference: reference, idempotencyKey: nil, failureCode: nil,
            createdAt: now, updatedAt: now)
        try await sql.walletTransactions.insert(funding)
        try await WebhookOutbox().recordWalletTransaction(funding, on: sql)
        return (id, try await sql.ledger.balance(accountId: wallet))
    }
}

extension WalletTransaction {
    /// The row as `GET /user/transactions` shows it, with the transfer it belongs to, if any.
    func summary(transfer: TransferParties? = nil) -> TransactionSummary {
        // The other side: the payer for who received (or gave back, in a reversal), else the payee.
        let counterparty = [.transferIn, .reversalOut].contains(type) ? transfer?.payerName : transfer?.payeeName
        return TransactionSummary(
            transactionId: id, type: type.rawValue, status: status.rawValue, amount: amount, currency: currency,
            productCode: productCode, recipientPhone: recipientPhone, authorizedBy: authorizedBy,
            timestamp: WallClock.iso8601(millis: createdAt),
            counterpartyName: counterparty.map(DisplayText.sanitized), note: transfer?.note,
            reference: externalReference, fees: type == .transferOut ? transfer?.totalFees : nil,
            failureCode: failureCode
        )
    }
}
