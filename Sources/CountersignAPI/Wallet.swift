/// `POST /user/topup` body: the seed's request. Exactly one of `verificationToken` and `pin`.
public struct TopUpRequest: Codable, Sendable {
    public var amount: Int64
    public var productCode: String
    public var recipientPhone: String
    public var supplierSlug: String?
    public var useCashback: Bool?
    public var verificationToken: String?
    public var pin: String?
    /// A top-up request.
    public init(amount: Int64, productCode: String, recipientPhone: String, supplierSlug: String? = nil, useCashback: Bool? = nil, verificationToken: String? = nil, pin: String? = nil) {
        self.amount = amount
        self.productCode = productCode
        self.recipientPhone = recipientPhone
        self.supplierSlug = supplierSlug
        self.useCashback = useCashback
        self.verificationToken = verificationToken
        self.pin = pin
    }
}

/// `POST /user/topup` answer: the seed's response.
public struct TopUpResponse: Codable, Sendable, Equatable {
    /// The transaction as it stands.
    public struct Data: Codable, Sendable, Equatable {
        public var transactionId: String
        /// `completed` or `failed`.
        public var status: String
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
        public init(transactionId: String, status: String, amount: Int64, balance: Int64, timestamp: String, cashbackUsed: Int64? = nil, cashbackEarned: Int64? = nil) {
            self.transactionId = transactionId
            self.status = status
            self.amount = amount
            self.balance = balance
            self.timestamp = timestamp
            self.cashbackUsed = cashbackUsed
            self.cashbackEarned = cashbackEarned
        }
    }
    public var success: Bool
    public var message: String
    /// Set when `success` is false, e.g. `supplier_failed`.
    public var code: String?
    public var data: Data
    /// A value with every field given.
    public init(success: Bool, message: String, code: String? = nil, data: Data) {
        self.success = success
        self.message = message
        self.code = code
        self.data = data
    }
}

/// `GET /user/wallet` answer.
public struct WalletResponse: Codable, Sendable, Equatable {
    public var balance: Int64
    public var cashback: Int64
    public var currency: String
    /// A value with every field given.
    public init(balance: Int64, cashback: Int64, currency: String) {
        self.balance = balance
        self.cashback = cashback
        self.currency = currency
    }
}

/// One row of `GET /user/transactions`.
public struct TransactionSummary: Codable, Sendable, Equatable {
    public var transactionId: String
    /// `topup`, `funding`, …
    public var type: String
    /// `pending`, `completed`, `failed`.
    public var status: String
    public var amount: Int64
    public var currency: String
    public var productCode: String?
    public var recipientPhone: String?
    public var authorizedBy: String?
    public var timestamp: String
    /// A value with every field given.
    public init(transactionId: String, type: String, status: String, amount: Int64, currency: String, productCode: String? = nil, recipientPhone: String? = nil, authorizedBy: String? = nil, timestamp: String) {
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
    public var transactions: [TransactionSummary]
    public var nextCursor: String?
    /// A value with every field given.
    public init(transactions: [TransactionSummary], nextCursor: String? = nil) {
        self.transactions = transactions
        self.nextCursor = nextCursor
    }
}
