import CountersignAPI
import Hummingbird

/// `/operator/*`: the operator console's API, for signed-in operators only (403 `not_operator`).
/// So far the read side and the audit: headline numbers, the action log, running the audit now.
package struct OperatorController {
    let operators: OperatorService
    let metrics: ServerMetrics
    let currency: String

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.operatorOverview, use: overview)
        group.on(.operatorActions, use: actions)
        group.on(.operatorAudit, use: audit)
    }

    /// `GET /operator/overview`.
    @Sendable func overview(_ request: Request, context: AppRequestContext) async throws -> OperatorOverview {
        try await operators.requireOperator(try context.requireUser())
        return try await operators.overview(headline: metrics.headline, currency: currency)
    }

    /// `GET /operator/actions`: the latest 50, newest first.
    @Sendable func actions(_ request: Request, context: AppRequestContext) async throws -> OperatorActionList {
        try await operators.requireOperator(try context.requireUser())
        return OperatorActionList(actions: try await operators.actions().map(OperatorService.wire))
    }

    /// `POST /operator/audit`: runs the ledger audit now, records it (and who asked) and answers the run.
    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> OperatorAuditRun {
        let userId = try context.requireUser()
        try await operators.requireOperator(userId)
        let (_, run) = try await operators.audit(via: "console", operatorId: userId)
        return OperatorService.wire(run)
    }
}

extension OperatorOverview: ResponseEncodable {}
extension OperatorActionList: ResponseEncodable {}
extension OperatorAuditRun: ResponseEncodable {}
