import CountersignStore

/// What the store knows of an idempotency key when a request arrives with it.
package enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new (or was abandoned before any money moved): this request owns it under
    /// `claimId` and must complete or release it.
    case claimed(claimId: String)
    /// A request with this key finished: replay its response.
    case replay(status: Int, body: String)
    /// A request with this key made the resource `resourceId`: answer its current state.
    case existing(resourceId: String)
    /// A request with this key is still running, or its money is awaiting settlement.
    case inFlight
    /// The key was used with a different request body.
    case mismatch
}

/// Idempotency keys per user (`Idempotency-Key` header).
///
/// A key's life: claimed (in flight) → linked to the wallet transaction its request debited, in the
/// debit's own database transaction → completed with the response in the settlement's transaction.
/// A request that dies before the debit leaves an unlinked claim, which a retry takes over as soon as
/// the claim's owner (a `server_instances` row) has no live lease, or once it is `staleBefore` old;
/// one that dies after it leaves a linked claim, which the pending top-up sweeper completes when it
/// settles the money. Either way no key is stuck and no request is charged twice.
package protocol IdempotencyRepository: Sendable {
    /// Claims the key for the request running in instance `owner`, or says why not. An unlinked claim
    /// is taken over if its owner is another instance without a live lease at `now`, or if it was
    /// created before `staleBefore` (claims made before owners were recorded).
    func claim(
        userId: String, key: String, requestHash: String, owner: String, now: Int64, staleBefore: Int64,
        on sql: any SQLExecutor
    ) async throws -> IdempotencyClaim
    /// Links the claim to the wallet transaction it debited; false if the claim was taken over.
    func link(userId: String, key: String, claimId: String, transactionId: String, on sql: any SQLExecutor) async throws
        -> Bool
    /// Stores the final response for replays.
    func complete(userId: String, key: String, status: Int, body: String, on sql: any SQLExecutor) async throws
    /// Records the resource the request made, in the transaction that made it; retries answer its current state.
    func complete(userId: String, key: String, resourceId: String, on sql: any SQLExecutor) async throws
    /// Forgets a claim whose request was refused before any money moved, so the client may retry.
    func release(userId: String, key: String, claimId: String, on sql: any SQLExecutor) async throws
}

/// `IdempotencyRepository` in shared SQL; the primary key (user_id, idempotency_key) makes a
/// second claim impossible even under concurrency.
package struct IdempotencySQLRepository: IdempotencyRepository {
    package init() {}

    package func claim(
        userId: String, key: String, requestHash: String, owner: String, now: Int64, staleBefore: Int64,
        on sql: any SQLExecutor
    ) async throws -> IdempotencyClaim {
        let claimId = Identifier.make("clm")
        let inserted = try await sql.query(
            """
            INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, claim_id, state, created_at, owner_instance)
            VALUES ($1, $2, $3, $4, 'in_flight', $5, $6)
            ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING state
            """,
            [.text(userId), .text(key), .text(requestHash), .text(claimId), .integer(now), .text(owner)]
        )
        if !inserted.isEmpty { return .claimed(claimId: claimId) }
        guard
            let row = try await sql.first(
                "SELECT request_hash, state, response_status, response_body, resource_id FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2",
                [.text(userId), .text(key)]
            )
        else {
            // Released between our insert and select: treat as still busy; the client retries.
            return .inFlight
        }
        guard try row.string("request_hash") == requestHash else { return .mismatch }
        if try row.string("state") == "done" {
            if let resourceId = try row.optionalString("resource_id") { return .existing(resourceId: resourceId) }
            if let status = try row.optionalInt("response_status"), let body = try row.optionalString("response_body") {
                return .replay(status: Int(status), body: body)
            }
        }
        // A claim that never moved money and whose process is gone (no live lease; our own process
        // is alive by definition) belonged to a request that died: take it over. So does one old
        // enough, for claims that name no owner. A claim linked to a debit is never taken over.
        let takenOver = try await sql.query(
            """
            UPDATE idempotency_keys SET claim_id = $3, created_at = $4, owner_instance = $6
            WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_flight' AND transaction_id IS NULL
              AND (created_at < $5 OR (owner_instance IS NOT NULL AND owner_instance <> $6 AND NOT EXISTS (
                SELECT 1 FROM server_instances i WHERE i.id = idempotency_keys.owner_instance AND i.lease_expires_at > $4)))
            RETURNING claim_id
            """,
            [.text(userId), .text(key), .text(claimId), .integer(now), .integer(staleBefore), .text(owner)]
        )
        return takenOver.isEmpty ? .inFlight : .claimed(claimId: claimId)
    }

    package func link(userId: String, key: String, claimId: String, transactionId: String, on sql: any SQLExecutor)
        async throws -> Bool
    {
        let rows = try await sql.query(
            """
            UPDATE idempotency_keys SET transaction_id = $4
            WHERE user_id = $1 AND idempotency_key = $2 AND claim_id = $3 AND transaction_id IS NULL RETURNING claim_id
            """,
            [.text(userId), .text(key), .text(claimId), .text(transactionId)]
        )
        return !rows.isEmpty
    }

    package func complete(userId: String, key: String, status: Int, body: String, on sql: any SQLExecutor) async throws
    {
        try await sql.execute(
            "UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4 WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key), .int(status), .text(body)]
        )
    }

    package func complete(userId: String, key: String, resourceId: String, on sql: any SQLExecutor) async throws {
        try await sql.execute(
            "UPDATE idempotency_keys SET state = 'done', resource_id = $3 WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key), .text(resourceId)]
        )
    }

    package func release(userId: String, key: String, claimId: String, on sql: any SQLExecutor) async throws {
        // Never a key whose request moved money: its retry must replay, not pay again.
        try await sql.execute(
            "DELETE FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2 AND claim_id = $3 AND state = 'in_flight' AND transaction_id IS NULL",
            [.text(userId), .text(key), .text(claimId)]
        )
    }
}
