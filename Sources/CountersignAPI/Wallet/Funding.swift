import CountersignCore

/// `POST /wallet/fundings`: add money to the wallet in `currency` by card or bank.
public struct CreateFundingRequest: Codable, Sendable, Equatable {
    /// Minor units of `currency`, within the funding bounds.
    public var amount: Int64
    /// One of the wallet currencies, e.g. `EUR`.
    public var currency: String
    /// `card` (any currency), `ideal` or `bancontact` (EUR).
    public var method: PaymentMethodKind
    /// The saved card to charge (`pm_…`); required for `card`.
    public var paymentMethodId: String?
    /// Where the provider's redirect (3-D Secure, the bank) sends the payer back.
    public var returnURL: String?
    /// A request.
    public init(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String? = nil,
        returnURL: String? = nil
    ) {
        (self.amount, self.currency, self.method) = (amount, currency, method)
        (self.paymentMethodId, self.returnURL) = (paymentMethodId, returnURL)
    }
}

/// Where a funding stands: `pending` until the provider answers, then `succeeded` (the wallet is
/// credited, once) or `failed` / `canceled` (nothing was credited).
public struct WalletFunding: Codable, Sendable, Equatable {
    /// Why a funding failed.
    public struct Failure: Codable, Sendable, Equatable {
        /// `card_declined`, `insufficient_funds`, `payment_failed`, `payment_canceled`, …
        public var code: String
        /// For people.
        public var message: String
        /// A failure.
        public init(code: String, message: String) { (self.code, self.message) = (code, message) }
    }
    /// The funding's id; also its wallet transaction's.
    public var fundingId: String
    /// `pending`, `succeeded`, `failed` or `canceled`.
    public var status: String
    /// Minor units of `currency`.
    public var amount: Int64
    /// The wallet it credits.
    public var currency: String
    /// How the payer pays.
    public var method: PaymentMethodKind
    /// The provider's status (Stripe's PaymentIntent statuses), when asked this time.
    public var paymentStatus: String?
    /// Where to send the payer while the provider waits for them (`requires_action`).
    public var redirectURL: String?
    /// Why it failed, if it did.
    public var error: Failure?
    /// The wallet's balance now, in minor units of `currency`.
    public var balance: Int64
    /// When it was made, ISO 8601 UTC.
    public var createdAt: String
    /// A value with every field given.
    public init(
        fundingId: String, status: String, amount: Int64, currency: String, method: PaymentMethodKind,
        paymentStatus: String? = nil, redirectURL: String? = nil, error: Failure? = nil, balance: Int64,
        createdAt: String
    ) {
        (self.fundingId, self.status, self.amount, self.currency, self.method) = (
            fundingId, status, amount, currency, method
        )
        (self.paymentStatus, self.redirectURL, self.error, self.balance, self.createdAt) = (
            paymentStatus, redirectURL, error, balance, createdAt
        )
    }
}
