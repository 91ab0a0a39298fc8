/// Transfers take their `Idempotency-Key` through `idempotency_keys`, as top-ups do: a key names the
/// resource its first request made (`resource_id`), and a retry answers that resource's current state.
/// Keys of transfers made before this migration are copied across, so their retries still find them;
/// where the user had already used the same key for a top-up, the top-up keeps it and such a retry
/// answers 422, never a second transfer.
package enum Migration0012TransferIdempotency {
    static let migration = Migration(
        version: 12, name: "transfer_idempotency",
        statements: [
            "ALTER TABLE idempotency_keys ADD COLUMN resource_id TEXT",
            backfill,
        ])

    /// Copies each transfer's key into `idempotency_keys`; idempotent itself, so a test can run it again.
    package static let backfill = """
        INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, claim_id, state, created_at, resource_id)
        SELECT payer_id, idempotency_key, request_hash, 'clm_' || id, 'done', created_at, id FROM transfers WHERE true
        ON CONFLICT (user_id, idempotency_key) DO NOTHING
        """
}
