/// Operators and what they do: a user may be flagged an operator (`countersign operator grant`);
/// every operator action, from the command line or the console, is appended to `operator_actions`;
/// every ledger audit's outcome to `audit_runs`, so the console can show the last one.
package enum Migration0013Operators {
    static let migration = Migration(
        version: 13, name: "operators",
        statements: [
            "ALTER TABLE users ADD COLUMN is_operator BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE operator_actions (
                id TEXT PRIMARY KEY,
                operator_id TEXT REFERENCES users(id),
                via TEXT NOT NULL,
                action TEXT NOT NULL,
                target_user_id TEXT REFERENCES users(id),
                detail TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX operator_actions_created ON operator_actions (created_at, id)",
            """
            CREATE TABLE audit_runs (
                id TEXT PRIMARY KEY,
                passed BIGINT NOT NULL,
                failed_checks TEXT NOT NULL,
                report TEXT NOT NULL,
                via TEXT NOT NULL,
                ran_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX audit_runs_ran ON audit_runs (ran_at, id)",
        ])
}
