/// Rate-limit windows every server process on the store shares: one row per limited key (a keyed
/// hash of the bucket and the address, phone number or account), the window's start and the
/// requests counted in it. On PostgreSQL the table is UNLOGGED: its writes need no WAL flush, and
/// a crash empties it, which only forgives the counts of the current windows.
enum Migration0023RateWindows {
    static let table = """
        TABLE rate_windows (
            key TEXT PRIMARY KEY,
            window_start BIGINT NOT NULL,
            count BIGINT NOT NULL CHECK (count > 0)
        )
        """

    static let migration = Migration(
        version: 23, name: "rate_windows",
        statements: [
            "CREATE " + table,
            "CREATE INDEX rate_windows_start ON rate_windows (window_start)",
        ],
        postgresStatements: [
            "CREATE UNLOGGED " + table,
            "CREATE INDEX rate_windows_start ON rate_windows (window_start)",
        ])
}
