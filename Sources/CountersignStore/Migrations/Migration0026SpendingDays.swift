/// What each user paid out of each currency's wallet, by UTC day (`created_at / 86400000`), kept by
/// triggers on `wallet_transactions` so that no write path can forget it: a row counts while its
/// type is one the spending limits count (`topup`, `transfer_out`, `order_payment`) and its status
/// is not `failed`, and an insert, an update or a delete moves its day's sum by what it adds or
/// takes away. The limits' windows then read at most one day of transactions and a sum per later
/// day (`LimitsRepository`), where summing every payment in a 30-day window cost a payer with
/// hundreds of payments about 100 µs a check, three checks a payment.
enum Migration0026SpendingDays {
    static let counted = "('topup', 'transfer_out', 'order_payment')"

    static let migration = Migration(
        version: 26, name: "spending_days",
        statements: [
            createTable,
            backfill,
            """
            CREATE TRIGGER spending_days_insert AFTER INSERT ON wallet_transactions
            WHEN NEW.type IN \(counted) AND NEW.status <> 'failed'
            BEGIN
                \(upsert(sign: "", row: "NEW", when: "true"));
            END
            """,
            """
            CREATE TRIGGER spending_days_update AFTER UPDATE OF user_id, currency, type, status, amount, created_at
            ON wallet_transactions WHEN \(changed)
            BEGIN
                \(upsert(sign: "-", row: "OLD", when: "OLD.type IN \(counted) AND OLD.status <> 'failed'"));
                \(upsert(sign: "", row: "NEW", when: "NEW.type IN \(counted) AND NEW.status <> 'failed'"));
            END
            """,
            """
            CREATE TRIGGER spending_days_delete AFTER DELETE ON wallet_transactions
            WHEN OLD.type IN \(counted) AND OLD.status <> 'failed'
            BEGIN
                \(upsert(sign: "-", row: "OLD", when: "true"));
            END
            """,
        ],
        postgresStatements: [
            createTable,
            backfill,
            """
            CREATE FUNCTION spending_days_track() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                IF TG_OP <> 'INSERT' AND OLD.type IN \(counted) AND OLD.status <> 'failed' THEN
                    \(upsert(sign: "-", row: "OLD", when: "true"));
                END IF;
                IF TG_OP <> 'DELETE' AND NEW.type IN \(counted) AND NEW.status <> 'failed' THEN
                    \(upsert(sign: "", row: "NEW", when: "true"));
                END IF;
                RETURN NULL;
            END
            $body$
            """,
            // Run at commit, not at each statement: the day's row is then locked last, after the
            // accounts every payment locks, so a debit (accounts, then its insert) and a failed
            // top-up's settlement (its update, then the payer's account) cannot deadlock on it.
            // So inside a transaction the days show its own payments only once it commits; every
            // payment checks the limits before it writes its one row.
            """
            CREATE CONSTRAINT TRIGGER spending_days_insert_delete AFTER INSERT OR DELETE ON wallet_transactions
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION spending_days_track()
            """,
            """
            CREATE CONSTRAINT TRIGGER spending_days_update
            AFTER UPDATE OF user_id, currency, type, status, amount, created_at ON wallet_transactions
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (\(changed)) EXECUTE FUNCTION spending_days_track()
            """,
        ])

    /// Whether an update changes what the row adds to a day: a settled payment (pending to
    /// succeeded) changes nothing, and runs no statement.
    static let changed = """
        (OLD.type IN \(counted) AND OLD.status <> 'failed') <> (NEW.type IN \(counted) AND NEW.status <> 'failed')
        OR (NEW.type IN \(counted) AND NEW.status <> 'failed' AND (OLD.amount <> NEW.amount
            OR OLD.user_id <> NEW.user_id OR OLD.currency <> NEW.currency
            OR OLD.created_at / 86400000 <> NEW.created_at / 86400000))
        """

    static let createTable = """
        CREATE TABLE spending_days (
            user_id TEXT NOT NULL, currency TEXT NOT NULL, day BIGINT NOT NULL, amount BIGINT NOT NULL,
            PRIMARY KEY (user_id, currency, day))
        """

    static let backfill = "INSERT INTO spending_days (user_id, currency, day, amount) " + days

    /// The days as the rows make them: what the triggers keep (`countersign audit` checks it).
    static let days = """
        SELECT user_id, currency, created_at / 86400000 AS day, CAST(SUM(amount) AS BIGINT) AS amount
        FROM wallet_transactions WHERE type IN \(counted) AND status <> 'failed'
        GROUP BY user_id, currency, created_at / 86400000
        """

    /// Adds `row`'s amount (`sign` "-": takes it away) to its day when `when` holds. A SELECT with
    /// a WHERE rather than VALUES: SQLite's triggers have no IF, and a WHERE before ON CONFLICT
    /// keeps SQLite from reading ON as a join's.
    static func upsert(sign: String, row: String, when condition: String) -> String {
        """
        INSERT INTO spending_days (user_id, currency, day, amount)
        SELECT \(row).user_id, \(row).currency, \(row).created_at / 86400000, \(sign)\(row).amount WHERE \(condition)
        ON CONFLICT (user_id, currency, day) DO UPDATE SET amount = spending_days.amount + excluded.amount
        """
    }
}
