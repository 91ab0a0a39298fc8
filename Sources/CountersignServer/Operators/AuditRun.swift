/// One recorded ledger audit.
package struct AuditRun: Sendable, Equatable {
    package let id: String
    package let passed: Bool
    /// The names of the checks that failed.
    package let failedChecks: [String]
    /// The report as `countersign audit --json` prints it.
    package let report: String
    package let via: String
    package let ranAt: Int64
}
