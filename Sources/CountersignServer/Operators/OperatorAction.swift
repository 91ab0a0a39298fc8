/// One recorded operator action.
package struct OperatorAction: Sendable, Equatable {
    package let id: String
    /// The operator who acted, or nil for the command line (which runs as whoever can read the store).
    package let operatorId: String?
    /// `cli` or `console`.
    package let via: String
    /// A stable name: `grant_operator`, `revoke_operator`, `fund_wallet`, `unlock_account`, `revoke_key`,
    /// `run_audit`, `search_users`.
    package let action: String
    package let targetUserId: String?
    /// What was done, for people; never a secret.
    package let detail: String
    package let createdAt: Int64
}
