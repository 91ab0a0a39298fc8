/// `POST /user/topup` body: the seed's request. Exactly one of `verificationToken`, `assertion` and
/// `pin`.
public struct TopUpRequest: Codable, Sendable {
    /// The amount in minor units.
    public var amount: Int64
    /// The product, e.g. `AIRTIME_MTN`.
    public var productCode: String
    /// The recipient phone number.
    public var recipientPhone: String
    /// The supplier, e.g. `mtn`.
    public var supplierSlug: String?
    /// Spend cashback before the wallet balance.
    public var useCashback: Bool?
    /// The single-use token that authorizes the payment.
    public var verificationToken: String?
    /// The device's assertion over the options challenge for this intent, sent with the payment
    /// instead of exchanging it for a token first: one round trip fewer, the same checks.
    public var assertion: AuthenticationResponseJSON?
    /// The PIN, when paying without a biometric token.
    public var pin: String?
    /// A top-up request.
    public init(
        amount: Int64, productCode: String, recipientPhone: String, supplierSlug: String? = nil,
        useCashback: Bool? = nil, verificationToken: String? = nil, assertion: AuthenticationResponseJSON? = nil,
        pin: String? = nil
    ) {
        self.amount = amount
        self.productCode = productCode
        self.recipientPhone = recipientPhone
        self.supplierSlug = supplierSlug
        self.useCashback = useCashback
        self.verificationToken = verificationToken
        self.assertion = assertion
        self.pin = pin
    }
}

/// `POST /user/topup` answer: the seed's response.
public struct TopUpResponse: Codable, Sendable, Equatable {
    /// The transaction as it stands.
    public struct Data: Codable, Sendable, Equatable {
        /// The transaction id.
        public var transactionId: String
        /// `completed` or `failed`.
        public var status: String
        /// The amount in minor units.
        public var amount: Int64
        /// The wallet balance after the top-up, in minor units.
        public var balance: Int64
        /// ISO 8601, UTC.
        public var timestamp: String
        /// Of `amount`, how much came from cashback.
        public var cashbackUsed: Int64?
        /// Cashback this purchase earned.
        public var cashbackEarned: Int64?
        /// A value with every field given.
        public init(
            transactionId: String, status: String, amount: Int64, balance: Int64, timestamp: String,
            cashbackUsed: Int64? = nil, cashbackEarned: Int64? = nil
        ) {
            self.transactionId = transactionId
            self.status = status
            self.amount = amount
            self.balance = balance
            self.timestamp = timestamp
            self.cashbackUsed = cashbackUsed
            self.cashbackEarned = cashbackEarned
        }
    }
    /// Whether the top-up completed.
    public var success: Bool
    /// A human-readable message.
    public var message: String
    /// Set when `success` is false, e.g. `supplier_failed`.
    public var code: String?
    /// The transaction.
    public var data: Data
    /// A value with every field given.
    public init(success: Bool, message: String, code: String? = nil, data: Data) {
        self.success = success
        self.message = message
        self.code = code
        self.data = data
    }
}

/// One wallet of a user's: money in one currency, never converted to another.
public struct WalletBalance: Codable, Sendable, Equatable {
    /// The ISO 4217 currency code.
    public var currency: String
    /// The wallet balance in minor units.
    public var balance: Int64
    /// The cashback balance in minor units.
    public var cashback: Int64
    /// A value with every field given.
    public init(currency: String, balance: Int64, cashback: Int64) {
        (self.currency, self.balance, self.cashback) = (currency, balance, cashback)
    }
}

/// `GET /user/wallet` answer: the primary wallet at the top level, every wallet in `wallets`.
public struct WalletResponse: Codable, Sendable, Equatable {
    /// The primary wallet's balance in minor units.
    public var balance: Int64
    /// The primary wallet's cashback balance in minor units.
    public var cashback: Int64
    /// The primary wallet's ISO 4217 currency code.
    public var currency: String
    /// Every wallet, the primary first.
    public var wallets: [WalletBalance]
    /// A value with every field given.
    public init(balance: Int64, cashback: Int64, currency: String, wallets: [WalletBalance]? = nil) {
        self.balance = balance
        self.cashback = cashback
        self.currency = currency
        self.wallets = wallets ?? [WalletBalance(currency: currency, balance: balance, cashback: cashback)]
    }

    private enum CodingKeys: String, CodingKey { case balance, cashback, currency, wallets }

    /// Decodes an answer; one from a server without `wallets` has just its primary wallet.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            balance: try container.decode(Int64.self, forKey: .balance),
            cashback: try container.decode(Int64.self, forKey: .cashback),
            currency: try container.decode(String.self, forKey: .currency),
            wallets: try container.decodeIfPresent([WalletBalance].self, forKey: .wallets))
    }

    /// The wallet in `currency`, if the user holds one.
    public func wallet(_ currency: String) -> WalletBalance? { wallets.first { $0.currency == currency } }
}

/// One row of `GET /user/transactions`.
public struct TransactionSummary: Codable, Sendable, Equatable {
    /// The transaction id.
    public var transactionId: String
    /// `topup`, `funding`, …
    public var type: String
    /// `pending`, `completed`, `failed`.
    public var status: String
    /// The amount in minor units.
    public var amount: Int64
    /// The ISO 4217 currency code.
    public var currency: String
    /// The product, e.g. `AIRTIME_MTN`.
    public var productCode: String?
    /// The recipient phone number.
    public var recipientPhone: String?
    /// `biometric`, `pin` or `operator`; for a funding through the provider, its method (`card`, `ideal`, `bancontact`).
    public var authorizedBy: String?
    /// When it was created, ISO 8601 UTC.
    public var timestamp: String
    /// The other side of a transfer, by name: the payee on `transfer_out`, the payer on `transfer_in`.
    public var counterpartyName: String?
    /// The note the payer wrote on a transfer, shown to both sides.
    public var note: String?
    /// What to quote when asking about it: the transfer id, or the supplier's reference of a top-up.
    public var reference: String?
    /// On `transfer_out`, the fees included in `amount`; the rest reached the payee.
    public var fees: Int64?
    /// Why a failed top-up failed, e.g. `supplier_failed`; nothing stayed debited.
    public var failureCode: String?
    /// A value with every field given.
    public init(
        transactionId: String, type: String, status: String, amount: Int64, currency: String,
        productCode: String? = nil, recipientPhone: String? = nil, authorizedBy: String? = nil, timestamp: String,
        counterpartyName: String? = nil, note: String? = nil, reference: String? = nil, fees: Int64? = nil,
        failureCode: String? = nil
    ) {
        self.counterpartyName = counterpartyName
        self.note = note
        self.reference = reference
        self.fees = fees
        self.failureCode = failureCode
        self.transactionId = transactionId
        self.type = type
        self.status = status
        self.amount = amount
        self.currency = currency
        self.productCode = productCode
        self.recipientPhone = recipientPhone
        self.authorizedBy = authorizedBy
        self.timestamp = timestamp
    }
}

/// `GET /user/transactions` answer: newest first; pass `nextCursor` as `cursor` for the next page.
public struct TransactionPage: Codable, Sendable {
    /// The page of transactions, newest first.
    public var transactions: [TransactionSummary]
    /// The cursor of the next page, if there is one.
    public var nextCursor: String?
    /// A value with every field given.
    public init(transactions: [TransactionSummary], nextCursor: String? = nil) {
        self.transactions = transactions
        self.nextCursor = nextCursor
    }
}
