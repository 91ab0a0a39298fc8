import CountersignAPI
import CountersignCore
import CountersignStore
import Foundation

/// Operators themselves: flagging them (the command line), the gate every console call passes, the
/// ledger audit's runs, the console's headline numbers and the action log. The console's work on
/// users' accounts is `OperatorConsole`. Each action is appended to `operator_actions` in the
/// transaction that does it.
package struct OperatorService: Sendable {
    let database: any Database
    let clock: WallClock
    let phoneRegion: PhoneRegion

    package init(database: any Database, clock: WallClock, phoneRegion: PhoneRegion) {
        (self.database, self.clock, self.phoneRegion) = (database, clock, phoneRegion)
    }

    /// Flags (or unflags) the user with `phone` as an operator, from the command line; returns their id.
    package func setOperator(phone: String, _ isOperator: Bool) async throws -> String {
        guard let number = PhoneNumber(phone, region: phoneRegion) else {
            throw APIError(
                .invalidPhone, "phone must be a phone number: +country code and number, or a national number.")
        }
        let now = clock.nowMillis()
        return try await database.transaction { sql in
            guard let userId = try await sql.operators.setOperator(phone: number.value, isOperator) else {
                throw APIError(.unknownUser, "No user has phone \(number.value).")
            }
            try await sql.operators.record(
                OperatorAction(
                    id: Identifier.make("opa"), operatorId: nil, via: "cli",
                    action: isOperator ? "grant_operator" : "revoke_operator", targetUserId: userId,
                    detail: isOperator ? "made an operator" : "no longer an operator", createdAt: now))
            return userId
        }
    }

    /// Runs the ledger audit on up to `connections` connections at once (`LedgerAudit`) and records its
    /// outcome (`via`: `cli` or `console`); from the console, the operator who asked is recorded as an
    /// action too. The console runs it on one connection, so a live server keeps its other cores.
    package func audit(via: String, operatorId: String? = nil, connections: Int = 1) async throws -> (
        report: LedgerAuditReport, run: AuditRun
    ) {
        let now = clock.nowMillis()
        let report = try await LedgerAudit().run(on: database, now: now, connections: connections)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let run = AuditRun(
            id: Identifier.make("aud"), passed: report.passed, failedChecks: report.failures.map(\.name),
            report: String(decoding: try encoder.encode(report), as: UTF8.self), via: via, ranAt: now)
        try await database.transaction { sql in
            try await sql.operators.record(run)
            if let operatorId {
                try await sql.operators.record(
                    OperatorAction(
                        id: Identifier.make("opa"), operatorId: operatorId, via: via, action: "run_audit",
                        targetUserId: nil,
                        detail: run.passed ? "passed" : "failed: " + run.failedChecks.joined(separator: ", "),
                        createdAt: now))
            }
        }
        return (report, run)
    }

    /// 403 `not_operator` unless `userId` is an operator.
    package func requireOperator(_ userId: String) async throws {
        guard try await database.read({ sql in try await sql.operators.isOperator(userId: userId) }) else {
            throw APIError(.notOperator, "Only operators may use the operator console.")
        }
    }

    /// The console's headline numbers: this process's `headline`, the store's totals, the last audit.
    package func overview(headline: MetricsHeadline, currency: String) async throws -> OperatorOverview {
        let now = clock.nowMillis()
        let (totals, last) = try await database.read { sql in
            (try await sql.operators.totals(currency: currency, now: now), try await sql.operators.lastAudit())
        }
        return OperatorOverview(
            requests: headline.requests, serverErrors: headline.serverErrors, lockouts: headline.lockouts,
            rateLimited: headline.rateLimited, streamsOpen: headline.streamsOpen, users: totals.users,
            lockedAccounts: totals.locked, walletFloat: totals.walletFloat, currency: currency,
            lastAudit: last.map(Self.wire))
    }

    /// An audit run as the console shows it.
    package static func wire(_ run: AuditRun) -> OperatorAuditRun {
        OperatorAuditRun(
            id: run.id, passed: run.passed, failedChecks: run.failedChecks, via: run.via,
            ranAt: WallClock.iso8601(millis: run.ranAt))
    }

    /// An action as the console shows it.
    package static func wire(_ action: OperatorAction) -> OperatorActionEntry {
        OperatorActionEntry(
            id: action.id, operatorId: action.operatorId, via: action.via, action: action.action,
            targetUserId: action.targetUserId, detail: action.detail,
            createdAt: WallClock.iso8601(millis: action.createdAt))
    }

    /// The latest recorded audit, if any.
    package func lastAudit() async throws -> AuditRun? {
        return try await database.read { sql in try await sql.operators.lastAudit() }
    }

    /// The latest operator actions, newest first.
    package func actions(limit: Int = 50) async throws -> [OperatorAction] {
        return try await database.read { sql in try await sql.operators.actions(limit: limit) }
    }
}
