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
/// A key is claimed in the same database transaction as the work it guards: a top-up claims it with
/// its debit (and completes it with the response in the settlement's transaction), a transfer with
/// its insert. So a request that dies before that transaction leaves nothing behind, and one that
/// dies after it leaves a claim linked to its money, which the pending top-up sweeper completes when
/// it settles. Either way no key is stuck and no request is charged twice. Unlinked claims exist only
/// in databases written by earlier versions, which claimed first in a transaction of its own; a
/// retry takes such a claim over as soon as its owner (a `server_instances` row) has no live lease,
/// or once it is `staleBefore` old.
///
/// The primary key (user_id, idempotency_key) makes a second claim impossible even under concurrency.
package struct IdempotencyRepository: Sendable {
    let sql: any SQLExecutor

    /// Claims the key for the request running in instance `owner`, or says why not. An unlinked claim
    /// is taken over if its owner is another instance without a live lease at `now`, or if it was
    /// created before `staleBefore` (claims made before owners were recorded). `linking` links the
    /// claim to the wallet transaction the same database transaction writes (a claim so linked is
    /// never taken over): only where that transaction writes it too, or rolls back.
    package func claim(
        userId: String, key: String, requestHash: String, owner: String, now: Int64, staleBefore: Int64,
        linking transactionId: String? = nil
    ) async throws -> IdempotencyClaim {
        let claimId = Identifier.make("clm")
        let inserted = try await sql.query(
            Self.newClaim(firstBind: 1),
            Self.newClaimValues(
                userId: userId, key: key, requestHash: requestHash, claimId: claimId, owner: owner, now: now,
                linking: transactionId))
        if !inserted.isEmpty { return .claimed(claimId: claimId) }
        guard let row = try await row(userId: userId, key: key) else {
            // Deleted between our insert and select: treat as still busy; the client retries.
            return .inFlight
        }
        if let answer = try Self.answer(row, requestHash: requestHash) { return answer }
        // A claim that never moved money and whose process is gone (no live lease; our own process
        // is alive by definition) belonged to a request that died: take it over. So does one old
        // enough, for claims that name no owner. A claim linked to a debit is never taken over.
        let takenOver = try await sql.query(
            """
            UPDATE idempotency_keys SET claim_id = $3, created_at = $4, owner_instance = $6, transaction_id = $7
            WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_flight' AND transaction_id IS NULL
              AND (created_at < $5 OR (owner_instance IS NOT NULL AND owner_instance <> $6 AND NOT EXISTS (
                SELECT 1 FROM server_instances i WHERE i.id = idempotency_keys.owner_instance AND i.lease_expires_at > $4)))
            RETURNING claim_id
            """,
            [
                .text(userId), .text(key), .text(claimId), .integer(now), .integer(staleBefore), .text(owner),
                .text(transactionId),
            ]
        )
        return takenOver.isEmpty ? .inFlight : .claimed(claimId: claimId)
    }

    /// Claims the key for `linked`'s request, linked to the wallet transaction it writes (`claim`).
    package func claim(_ linked: LinkedClaim) async throws -> IdempotencyClaim {
        try await claim(
            userId: linked.userId, key: linked.ticket.key, requestHash: linked.ticket.requestHash,
            owner: linked.ticket.owner, now: linked.now,
            staleBefore: linked.now - IdempotentRequest.abandonedClaimMillis,
            linking: linked.transactionId)
    }

    /// `claim`'s insert as the first part of a PostgreSQL statement, `claimed AS (…)`, its values
    /// appended to `binds`: one row if the key was new and is now `linked`'s, none if it exists. The
    /// parts after it run only if it returned a row; where it did not, nothing was written and
    /// `claim` says why (or takes over a claim whose request died).
    package static func claimPart(_ linked: LinkedClaim, binds: inout [SQLValue]) -> String {
        let first = binds.count + 1
        binds += newClaimValues(
            userId: linked.userId, key: linked.ticket.key, requestHash: linked.ticket.requestHash,
            claimId: Identifier.make("clm"), owner: linked.ticket.owner, now: linked.now,
            linking: linked.transactionId)
        return "claimed AS (\n\(newClaim(firstBind: first)))"
    }

    /// A new claim's insert, its seven values from `$firstBind` on (`newClaimValues`); a row if the
    /// key was new.
    private static func newClaim(firstBind: Int) -> String {
        let values = (firstBind..<firstBind + 7).map { "$\($0)" }
        return """
            INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, claim_id, state, created_at, owner_instance, transaction_id)
            VALUES (\(values[0]), \(values[1]), \(values[2]), \(values[3]), 'in_flight', \(values[4]), \(values[5]), \(values[6]))
            ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING state
            """
    }

    private static func newClaimValues(
        userId: String, key: String, requestHash: String, claimId: String, owner: String, now: Int64,
        linking transactionId: String?
    ) -> [SQLValue] {
        [
            .text(userId), .text(key), .text(requestHash), .text(claimId), .integer(now), .text(owner),
            .text(transactionId),
        ]
    }

    /// What a request with this key should answer without doing anything, read outside any write:
    /// nil when the key is free to claim (unknown, or an unlinked claim a claim may take over).
    package func lookup(userId: String, key: String, requestHash: String) async throws
        -> IdempotencyClaim?
    {
        guard let row = try await row(userId: userId, key: key) else { return nil }
        if let answer = try Self.answer(row, requestHash: requestHash) { return answer }
        // In flight: linked to money, it waits for settlement; unlinked, a claim decides whether
        // it may be taken over.
        return try row.optionalString("transaction_id") == nil ? nil : .inFlight
    }

    private func row(userId: String, key: String) async throws -> SQLRow? {
        try await sql.first(
            "SELECT request_hash, state, response_status, response_body, resource_id, transaction_id FROM idempotency_keys WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key)]
        )
    }

    /// The answer a finished key, or one used with another request, gives; nil while in flight.
    private static func answer(_ row: SQLRow, requestHash: String) throws -> IdempotencyClaim? {
        guard try row.string("request_hash") == requestHash else { return .mismatch }
        guard try row.string("state") == "done" else { return nil }
        if let resourceId = try row.optionalString("resource_id") { return .existing(resourceId: resourceId) }
        if let status = try row.optionalInt("response_status"), let body = try row.optionalString("response_body") {
            return .replay(status: Int(status), body: body)
        }
        return nil
    }

    /// Stores the final response for replays.
    package func complete(userId: String, key: String, status: Int, body: String) async throws {
        try await sql.execute(
            "UPDATE idempotency_keys SET state = 'done', response_status = $3, response_body = $4 WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key), .int(status), .text(body)]
        )
    }

    /// Records the resource the request made, in the transaction that made it; retries answer its current state.
    package func complete(userId: String, key: String, resourceId: String) async throws {
        try await sql.execute(
            "UPDATE idempotency_keys SET state = 'done', resource_id = $3 WHERE user_id = $1 AND idempotency_key = $2",
            [.text(userId), .text(key), .text(resourceId)]
        )
    }
}

/// A request's claim on its idempotency key, made in the transaction that writes its money and
/// linked to the wallet transaction `transactionId` that the same commit writes.
package struct LinkedClaim: Sendable {
    package let userId: String
    package let ticket: IdempotencyTicket
    package let transactionId: String
    package let now: Int64
}

extension IdempotencyRepository {
    /// For an endpoint whose request makes one resource (a transfer, a funding), in the caller's
    /// transaction: claims the key, and for a new key runs `make` (nil: nothing was made) and
    /// records the resource it made; a key that made one answers it through `find` (`created`
    /// false). A request with this key still running is 409; the key used with another request, or
    /// by an endpoint that stores answers, is 422.
    package func claimResource<Resource>(
        _ request: IdempotentRequest, userId: String, owner: String, now: Int64,
        id: (Resource) -> String, find: (String) async throws -> Resource?, make: () async throws -> Resource?
    ) async throws -> (resource: Resource?, created: Bool) {
        let claim = try await self.claim(
            userId: userId, key: request.key, requestHash: request.fingerprint, owner: owner, now: now,
            staleBefore: now - IdempotentRequest.abandonedClaimMillis)
        switch claim {
        case .claimed:
            guard let made = try await make() else { return (nil, false) }
            try await complete(userId: userId, key: request.key, resourceId: id(made))
            return (made, true)
        case .existing(let resourceId):
            return (try await find(resourceId), false)
        case .inFlight:
            throw IdempotentRequest.inFlight
        case .mismatch, .replay:
            // `.replay` is another endpoint's key (its fingerprint never matches this one's).
            throw IdempotentRequest.reused
        }
    }
}

extension SQLExecutor {
    /// `IdempotencyRepository` on this connection or transaction.
    package var idempotency: IdempotencyRepository { IdempotencyRepository(sql: self) }
}
