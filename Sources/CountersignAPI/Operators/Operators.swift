/// `GET /operator/overview`: the headline numbers for the operator console.
public struct OperatorOverview: Codable, Sendable, Equatable {
    /// This server process since it started (its metrics): requests answered, 5xx among them,
    /// lockouts, rate-limit refusals, live transfer streams.
    public var requests: Int
    public var serverErrors: Int
    public var lockouts: Int
    public var rateLimited: Int
    public var streamsOpen: Int
    /// The store: users, users with payments or PIN locked now, the sum of user wallets (minor units).
    public var users: Int64
    public var lockedAccounts: Int64
    public var walletFloat: Int64
    public var currency: String
    /// The latest ledger audit, from the command line or the console; nil if none ran.
    public var lastAudit: OperatorAuditRun?

    public init(
        requests: Int, serverErrors: Int, lockouts: Int, rateLimited: Int, streamsOpen: Int, users: Int64,
        lockedAccounts: Int64, walletFloat: Int64, currency: String, lastAudit: OperatorAuditRun? = nil
    ) {
        (self.requests, self.serverErrors, self.lockouts, self.rateLimited) = (
            requests, serverErrors, lockouts, rateLimited
        )
        (self.streamsOpen, self.users, self.lockedAccounts) = (streamsOpen, users, lockedAccounts)
        (self.walletFloat, self.currency, self.lastAudit) = (walletFloat, currency, lastAudit)
    }
}

/// One recorded ledger audit.
public struct OperatorAuditRun: Codable, Sendable, Equatable {
    public var id: String
    public var passed: Bool
    /// The names of the checks that failed.
    public var failedChecks: [String]
    /// `cli` or `console`.
    public var via: String
    /// ISO 8601, UTC.
    public var ranAt: String

    public init(id: String, passed: Bool, failedChecks: [String], via: String, ranAt: String) {
        (self.id, self.passed, self.failedChecks, self.via, self.ranAt) = (id, passed, failedChecks, via, ranAt)
    }
}

/// One recorded operator action.
public struct OperatorActionEntry: Codable, Sendable, Equatable {
    public var id: String
    /// The operator, or nil for the command line.
    public var operatorId: String?
    public var via: String
    public var action: String
    public var targetUserId: String?
    public var detail: String
    /// ISO 8601, UTC.
    public var createdAt: String

    public init(
        id: String, operatorId: String?, via: String, action: String, targetUserId: String?, detail: String,
        createdAt: String
    ) {
        (self.id, self.operatorId, self.via, self.action) = (id, operatorId, via, action)
        (self.targetUserId, self.detail, self.createdAt) = (targetUserId, detail, createdAt)
    }
}

/// `GET /operator/actions`: the latest actions, newest first.
public struct OperatorActionList: Codable, Sendable, Equatable {
    public var actions: [OperatorActionEntry]
    public init(actions: [OperatorActionEntry]) { self.actions = actions }
}

/// One user found by `GET /operator/users?phone=`.
public struct OperatorUserSummary: Codable, Sendable, Equatable {
    public var userId: String
    public var phone: String
    public var name: String
    public var isOperator: Bool
    /// Payments or the PIN locked now.
    public var locked: Bool

    public init(userId: String, phone: String, name: String, isOperator: Bool, locked: Bool) {
        (self.userId, self.phone, self.name, self.isOperator, self.locked) = (userId, phone, name, isOperator, locked)
    }
}

/// `GET /operator/users?phone=`: at most 20 users whose number starts with the prefix, by number.
public struct OperatorUserList: Codable, Sendable, Equatable {
    public var users: [OperatorUserSummary]
    public init(users: [OperatorUserSummary]) { self.users = users }
}

/// A user's locks and failure counts, as the console shows them.
public struct OperatorLockState: Codable, Sendable, Equatable {
    /// Payments or the PIN locked now.
    public var locked: Bool
    /// Failed payment authorizations since the last success (the payment lock counts these).
    public var failedPaymentAuths: Int64
    /// When the payment lock ends (ISO 8601, UTC); nil unless locked now.
    public var paymentLockedUntil: String?
    /// Failed PIN checks since the last correct PIN (the PIN lock counts these).
    public var failedPinAttempts: Int64
    /// When the PIN lock ends (ISO 8601, UTC); nil unless locked now.
    public var pinLockedUntil: String?
    /// The PIN is blocked after repeated locks: only an unlock lifts it.
    public var pinBlocked: Bool

    public init(
        locked: Bool, failedPaymentAuths: Int64, paymentLockedUntil: String?, failedPinAttempts: Int64,
        pinLockedUntil: String?, pinBlocked: Bool = false
    ) {
        self.pinBlocked = pinBlocked
        (self.locked, self.failedPaymentAuths, self.paymentLockedUntil) = (
            locked, failedPaymentAuths, paymentLockedUntil
        )
        (self.failedPinAttempts, self.pinLockedUntil) = (failedPinAttempts, pinLockedUntil)
    }
}

/// `GET /operator/users/{userId}`: a user's wallet, locks, live device keys and latest transactions.
public struct OperatorUserDetail: Codable, Sendable, Equatable {
    public var userId: String
    public var phone: String
    public var name: String
    public var isOperator: Bool
    /// When the account was made (ISO 8601, UTC).
    public var createdAt: String
    /// Wallet and cashback balances, minor units.
    public var balance: Int64
    public var cashback: Int64
    public var currency: String
    public var lock: OperatorLockState
    /// Live device keys, oldest first (revoked keys are not listed).
    public var keys: [CredentialSummary]
    /// The latest 20 wallet transactions, newest first.
    public var transactions: [TransactionSummary]
    /// Whether a code proved the number (accounts opened before codes are unproven until a login).
    public var phoneVerified: Bool
    /// The latest 20 security events: new devices, keys bound, PIN resets, number changes.
    public var events: [AccountEvent]
    /// Every wallet, the primary (the one `balance` and `cashback` describe) first.
    public var wallets: [WalletBalance]
    /// The spending limits tier the user is in (`PUT /operator/users/{userId}/tier`), and the tiers
    /// the server is configured with.
    public var limitsTier: String?
    public var limitsTiers: [String]?

    public init(
        userId: String, phone: String, name: String, isOperator: Bool, createdAt: String, balance: Int64,
        cashback: Int64, currency: String, lock: OperatorLockState, keys: [CredentialSummary],
        transactions: [TransactionSummary], phoneVerified: Bool = true, events: [AccountEvent] = [],
        wallets: [WalletBalance] = []
    ) {
        (self.phoneVerified, self.events, self.wallets) = (phoneVerified, events, wallets)
        (self.userId, self.phone, self.name, self.isOperator, self.createdAt) = (
            userId, phone, name, isOperator, createdAt
        )
        (self.balance, self.cashback, self.currency, self.lock) = (balance, cashback, currency, lock)
        (self.keys, self.transactions) = (keys, transactions)
    }
}

/// The body of the console's unlock and revoke calls: the operator's own PIN, checked again for
/// every action that changes an account (a stolen operator session alone changes nothing).
public struct OperatorPinRequest: Codable, Sendable, Equatable {
    public var pin: String
    public init(pin: String) { self.pin = pin }
}

/// `POST /operator/users/{userId}/fund`: credit the wallet from the funding account (the ledger
/// entry `countersign wallet fund` posts), with an `Idempotency-Key`.
public struct OperatorFundRequest: Codable, Sendable, Equatable {
    /// The operator's own PIN.
    public var pin: String
    /// Minor units, 1 to 100,000,000.
    public var amount: Int64
    /// The wallet to credit, e.g. `EUR`; absent means the primary wallet.
    public var currency: String?
    public init(pin: String, amount: Int64, currency: String? = nil) {
        (self.pin, self.amount, self.currency) = (pin, amount, currency)
    }
}

/// The answer to a funding.
public struct OperatorFunding: Codable, Sendable, Equatable {
    /// The funding's wallet transaction.
    public var transactionId: String
    public var userId: String
    public var amount: Int64
    public var currency: String
    /// The wallet's balance after the funding (on a replay: the balance now).
    public var balance: Int64

    public init(transactionId: String, userId: String, amount: Int64, currency: String, balance: Int64) {
        (self.transactionId, self.userId, self.amount, self.currency, self.balance) = (
            transactionId, userId, amount, currency, balance
        )
    }
}

extension Endpoint {
    /// The console's headline numbers.
    package static let operatorOverview = Endpoint(.get, "/operator/overview")
    /// The operator action log.
    package static let operatorActions = Endpoint(.get, "/operator/actions")
    /// Run the ledger audit now and record it.
    package static let operatorAudit = Endpoint(.post, "/operator/audit")
    /// Users whose phone number starts with a prefix.
    package static let operatorUsers = Endpoint(.get, "/operator/users")
    /// One user's wallet, locks, keys and transactions.
    package static let operatorUser = Endpoint(.get, "/operator/users/{userId}")
    /// Clear a user's payment and PIN locks.
    package static let operatorUnlock = Endpoint(.post, "/operator/users/{userId}/unlock")
    /// Revoke one of a user's device keys.
    package static let operatorRevokeKey = Endpoint(.post, "/operator/users/{userId}/keys/{credentialId}/revoke")
    /// Credit a user's wallet.
    package static let operatorFund = Endpoint(.post, "/operator/users/{userId}/fund")
    /// Refund (part of) any paid order, before or after its proceeds are released.
    package static let operatorRefundOrder = Endpoint(.post, "/operator/orders/{id}/refunds")
}

/// `POST /operator/transfers/{id}/reverse` and `POST /operator/fundings/{id}/reverse`.
public struct OperatorReverseRequest: Codable, Sendable, Equatable {
    /// The operator's own PIN.
    public var pin: String
    /// Why, shown to the users: 1 to 200 characters.
    public var reason: String

    /// A reversal request.
    public init(pin: String, reason: String) { (self.pin, self.reason) = (pin, reason) }
}

/// A reversal: a new ledger entry undoing a completed transfer or funding exactly, linked to it.
public struct OperatorReversal: Codable, Sendable, Equatable {
    public var id: String
    /// `transfer` or `funding`.
    public var originalKind: String
    /// The transfer's id, or the funding's transaction id.
    public var originalId: String
    /// What came back to the payer (the transfer's amount and fees), or left the funded wallet.
    public var amount: Int64
    public var currency: String
    public var reason: String
    /// ISO 8601, UTC.
    public var createdAt: String

    /// A reversal.
    public init(
        id: String, originalKind: String, originalId: String, amount: Int64, currency: String, reason: String,
        createdAt: String
    ) {
        (self.id, self.originalKind, self.originalId, self.amount) = (id, originalKind, originalId, amount)
        (self.currency, self.reason, self.createdAt) = (currency, reason, createdAt)
    }
}

extension Endpoint {
    /// Reverse a completed transfer.
    package static let operatorReverseTransfer = Endpoint(.post, "/operator/transfers/{id}/reverse")
    /// Reverse an operator's funding of a wallet.
    package static let operatorReverseFunding = Endpoint(.post, "/operator/fundings/{id}/reverse")
}
