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

extension Endpoint {
    /// The console's headline numbers.
    package static let operatorOverview = Endpoint(.get, "/operator/overview")
    /// The operator action log.
    package static let operatorActions = Endpoint(.get, "/operator/actions")
    /// Run the ledger audit now and record it.
    package static let operatorAudit = Endpoint(.post, "/operator/audit")
}
