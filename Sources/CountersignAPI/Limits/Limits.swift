/// One of the spending limits an account has per currency.
public enum SpendingLimitKind: String, Codable, Sendable, CaseIterable {
    /// The most one payment may be.
    case perPayment = "per_payment"
    /// The most paid in the last 24 hours.
    case daily
    /// The most paid in the last 30 days.
    case rolling30Days = "rolling_30_days"
    /// The most the wallet may hold: incoming money beyond it is refused.
    case maxBalance = "max_balance"
}

/// A raise of a limit waiting for its delay.
public struct PendingLimitRaise: Codable, Sendable, Equatable {
    /// The limit from `effectiveAt`, in minor units.
    public var amount: Int64
    /// When it applies (ISO 8601).
    public var effectiveAt: String
    /// A pending raise.
    public init(amount: Int64, effectiveAt: String) {
        self.amount = amount
        self.effectiveAt = effectiveAt
    }
}

/// One limit of one currency, as it applies now.
public struct SpendingLimit: Codable, Sendable, Equatable {
    /// Which limit.
    public var kind: SpendingLimitKind
    /// The limit now, in minor units: the tier's or the user's own lower one; nil for none.
    public var limit: Int64?
    /// The tier's limit, the most the user may raise it back to; nil for none.
    public var tierLimit: Int64?
    /// What counts against it now: paid in the window, or the balance for `max_balance`; 0 for `per_payment`.
    public var used: Int64
    /// `limit - used`, never below 0; nil when there is no limit.
    public var remaining: Int64?
    /// A raise waiting for its delay, if any.
    public var pending: PendingLimitRaise?
    /// A limit.
    public init(
        kind: SpendingLimitKind, limit: Int64?, tierLimit: Int64?, used: Int64, remaining: Int64?,
        pending: PendingLimitRaise? = nil
    ) {
        self.kind = kind
        self.limit = limit
        self.tierLimit = tierLimit
        self.used = used
        self.remaining = remaining
        self.pending = pending
    }
}

/// The limits of one currency.
public struct CurrencyLimits: Codable, Sendable, Equatable {
    /// ISO 4217 code.
    public var currency: String
    /// Every limit of the currency, one per kind.
    public var limits: [SpendingLimit]
    /// A currency's limits.
    public init(currency: String, limits: [SpendingLimit]) {
        self.currency = currency
        self.limits = limits
    }
}

/// `GET /user/limits`.
public struct LimitsResponse: Codable, Sendable, Equatable {
    /// The tier the operator assigned (or the default tier).
    public var tier: String
    /// How long a raise waits before it applies, in seconds.
    public var raiseDelaySeconds: Int64
    /// The limits per currency.
    public var currencies: [CurrencyLimits]
    /// The limits.
    public init(tier: String, raiseDelaySeconds: Int64, currencies: [CurrencyLimits]) {
        self.tier = tier
        self.raiseDelaySeconds = raiseDelaySeconds
        self.currencies = currencies
    }
}

/// `PUT /user/limits`: one limit changed. Lower is at once; higher (up to the tier's) needs `stepUp`,
/// an assertion over a step-up challenge (`POST /biometric/step-up/options`), and applies after the delay.
public struct SetLimitRequest: Codable, Sendable {
    /// ISO 4217 code.
    public var currency: String
    /// Which limit.
    public var kind: SpendingLimitKind
    /// The new limit in minor units, from 0 to the tier's.
    public var amount: Int64
    /// An assertion from one of the user's keys; required to raise.
    public var stepUp: AuthenticationResponseJSON?
    /// A change.
    public init(currency: String, kind: SpendingLimitKind, amount: Int64, stepUp: AuthenticationResponseJSON? = nil) {
        self.currency = currency
        self.kind = kind
        self.amount = amount
        self.stepUp = stepUp
    }
}

/// What a `limit_exceeded` refusal says: which limit, and what remains of it.
public struct LimitRefusal: Codable, Sendable, Equatable {
    /// ISO 4217 code.
    public var currency: String
    /// Which limit.
    public var kind: SpendingLimitKind
    /// The limit, in minor units.
    public var limit: Int64
    /// What may still be paid under it now, in minor units.
    public var remaining: Int64
    /// A refusal's detail.
    public init(currency: String, kind: SpendingLimitKind, limit: Int64, remaining: Int64) {
        self.currency = currency
        self.kind = kind
        self.limit = limit
        self.remaining = remaining
    }
}

/// `PUT /operator/users/{userId}/tier`.
public struct AssignTierRequest: Codable, Sendable, Equatable {
    /// A tier the server is configured with.
    public var tier: String
    /// The operator's own PIN, as every console action takes.
    public var pin: String
    /// An assignment.
    public init(tier: String, pin: String) {
        self.tier = tier
        self.pin = pin
    }
}

extension Endpoint {
    /// The user's limits per currency.
    package static let userLimits = Endpoint(.get, "/user/limits")
    /// Changes one of the user's limits.
    package static let setUserLimit = Endpoint(.put, "/user/limits")
    /// Assigns a user's limits tier.
    package static let operatorAssignTier = Endpoint(.put, "/operator/users/{userId}/tier")
}
