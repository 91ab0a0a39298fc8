/// Users, sessions, credentials, challenges, the ledger, wallet transactions and idempotency keys.
enum Migration0001Core {
    static let migration = Migration(
        version: 1, name: "core",
        statements: [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                phone TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                pin_hash TEXT NOT NULL,
                user_handle TEXT NOT NULL UNIQUE,
                failed_payment_auths BIGINT NOT NULL DEFAULT 0,
                payment_locked_until BIGINT NOT NULL DEFAULT 0,
                failed_logins BIGINT NOT NULL DEFAULT 0,
                login_locked_until BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            """
            CREATE TABLE credentials (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                public_key TEXT NOT NULL,
                algorithm BIGINT NOT NULL,
                sign_count BIGINT NOT NULL,
                backup_eligible BIGINT NOT NULL,
                backup_state BIGINT NOT NULL,
                transports TEXT NOT NULL,
                attestation_format TEXT NOT NULL,
                attestation_verified BIGINT NOT NULL,
                aaguid TEXT NOT NULL,
                flagged_at BIGINT,
                flagged_reason TEXT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX credentials_user ON credentials (user_id)",
            """
            CREATE TABLE challenges (
                challenge TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                purpose TEXT NOT NULL CHECK (purpose IN ('registration', 'authentication')),
                intent TEXT,
                intent_digest TEXT,
                user_verification TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                consumed_at BIGINT
            )
            """,
            """
            CREATE TABLE consumed_tokens (
                jti TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                consumed_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                user_id TEXT REFERENCES users(id),
                kind TEXT NOT NULL,
                currency TEXT NOT NULL,
                balance BIGINT NOT NULL DEFAULT 0,
                may_go_negative BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                CHECK (may_go_negative = 1 OR balance >= 0),
                UNIQUE (user_id, kind, currency)
            )
            """,
            """
            CREATE TABLE ledger_transactions (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                reference TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE postings (
                id TEXT PRIMARY KEY,
                ledger_transaction_id TEXT NOT NULL REFERENCES ledger_transactions(id),
                account_id TEXT NOT NULL REFERENCES accounts(id),
                amount BIGINT NOT NULL CHECK (amount <> 0),
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX postings_account ON postings (account_id)",
            "CREATE INDEX postings_transaction ON postings (ledger_transaction_id)",
            """
            CREATE TABLE wallet_transactions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                type TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
                amount BIGINT NOT NULL CHECK (amount > 0),
                currency TEXT NOT NULL,
                product_code TEXT,
                recipient_phone TEXT,
                supplier_slug TEXT,
                authorized_by TEXT,
                cashback_used BIGINT NOT NULL DEFAULT 0,
                cashback_earned BIGINT NOT NULL DEFAULT 0,
                external_reference TEXT,
                idempotency_key TEXT,
                failure_code TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX wallet_transactions_user ON wallet_transactions (user_id, created_at, id)",
            // A supplier's receipt or an operator's funding reference is used once per kind.
            "CREATE UNIQUE INDEX wallet_transactions_reference ON wallet_transactions (type, external_reference)",
            """
            CREATE TABLE idempotency_keys (
                user_id TEXT NOT NULL REFERENCES users(id),
                idempotency_key TEXT NOT NULL,
                request_hash TEXT NOT NULL,
                claim_id TEXT NOT NULL,
                transaction_id TEXT,
                state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
                response_status BIGINT,
                response_body TEXT,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            )
            """,
        ])
}
