import CountersignAPI
import CountersignCore
import CountersignStore
import Foundation

/// Transfers and the ordered versions of each.
package struct TransferRepository: Sendable {
    let sql: any SQLExecutor

    /// Inserts a new transfer and its first version; false if the payer used its idempotency key already.
    package func insert(_ t: Transfer) async throws -> Bool {
        let inserted = try await sql.query(
            """
            INSERT INTO transfers (id, payer_id, payee_phone, amount, currency, note, status, sequence, idempotency_key, request_hash, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            ON CONFLICT (payer_id, idempotency_key) DO NOTHING RETURNING id
            """,
            [
                .text(t.id), .text(t.payerId), .text(t.payeePhone), .integer(t.amount), .text(t.currency),
                .text(t.note),
                .text(t.status.rawValue), .integer(t.sequence), .text(t.idempotencyKey), .text(t.requestHash),
                .integer(t.createdAt), .integer(t.updatedAt),
            ]
        )
        guard !inserted.isEmpty else { return false }
        try await record(t)
        return true
    }

    /// Writes `next` over the version before it and records the new version; false if the stored
    /// transfer is no longer at `next.sequence - 1` (another process moved it first), or is in a status
    /// the state machine does not move to `next.status` from.
    package func save(_ t: Transfer) async throws -> Bool {
        // The stored status must be one the state machine moves to the new one from: a second guard,
        // beside the version, that no write skips a step.
        let sources = TransferStatus.boundSources(of: t.status, first: 14)
        guard !sources.values.isEmpty else { return false }
        let updated = try await sql.query(
            """
            UPDATE transfers SET status = $3, payee_id = $4, payee_name = $5, quote = $6, total_fees = $7, quote_expires_at = $8,
                challenge = $9, error_code = $10, error_message = $11, authorized_by = $12, sequence = $2, updated_at = $13
            WHERE id = $1 AND sequence = $2 - 1 AND status IN (\(sources.placeholders)) RETURNING id
            """,
            [
                .text(t.id), .integer(t.sequence), .text(t.status.rawValue), .text(t.payeeId), .text(t.payeeName),
                .text(t.quote.map { String(decoding: $0.canonicalBytes, as: UTF8.self) }),
                t.quote.map { .integer($0.totalFees) } ?? .null,
                t.quoteExpiresAt.map { .integer($0) } ?? .null, .text(try t.challenge.map(CanonicalJSON.string)),
                .text(t.failure?.code), .text(t.failure?.message), .text(t.authorizedBy), .integer(t.updatedAt),
            ] + sources.values
        )
        guard !updated.isEmpty else { return false }
        try await record(t)
        // Every change of a transfer passes here: a final state's webhook commits with it.
        try await WebhookOutbox().recordTransfer(t, on: sql)
        return true
    }

    package func find(id: String) async throws -> Transfer? {
        try await sql.first("SELECT * FROM transfers WHERE id = $1", [.text(id)]).map(Self.transfer(from:))
    }

    /// Claims the oldest transfer the server must move on (in a pending step, authorized, or with a
    /// quote that lapsed by `now`), other than `excluding`, and returns its id. `lockSuffix` is
    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL, so two processes never claim the same one.
    package func claimWork(now: Int64, excluding: [String], lockSuffix: String) async throws
        -> String?
    {
        // Only the id: a row that cannot be decoded is then the caller's to handle, not a claim error.
        let placeholders = excluding.indices.map { "$\($0 + 2)" }.joined(separator: ", ")
        let exclusion = excluding.isEmpty ? "" : " AND id NOT IN (\(placeholders))"
        return try await sql.first(
            """
            SELECT id FROM transfers
            WHERE (status IN ('PENDING_PAYEE_LOOKUP', 'PENDING_QUOTE', 'AUTHORIZED')
               OR (status = 'AUTHORIZATION_REQUIRED' AND quote_expires_at <= $1))\(exclusion)
            ORDER BY updated_at LIMIT 1\(lockSuffix)
            """,
            [.integer(now)] + excluding.map { .text($0) }
        )?.string("id")
    }

    /// The stored versions after `sequence`, oldest first, as (sequence, status, document JSON).
    package func events(transferId: String, after sequence: Int64) async throws
        -> [TransferEvent]
    {
        try await sql.query(
            "SELECT sequence, status, document FROM transfer_events WHERE transfer_id = $1 AND sequence > $2 ORDER BY sequence",
            [.text(transferId), .integer(sequence)]
        ).map { row in
            guard let status = TransferStatus(rawValue: try row.string("status")) else {
                throw DatabaseError.decoding(column: "status")
            }
            return TransferEvent(
                sequence: try row.int("sequence"), status: status, document: try row.string("document"))
        }
    }

    /// The version row; its primary key (transfer, sequence) is a second guard against two writers.
    private func record(_ t: Transfer) async throws {
        try await sql.execute(
            "INSERT INTO transfer_events (transfer_id, sequence, status, document, created_at) VALUES ($1, $2, $3, $4, $5)",
            [
                .text(t.id), .integer(t.sequence), .text(t.status.rawValue),
                .text(try CanonicalJSON.string(t.document)),
                .integer(t.updatedAt),
            ]
        )
    }

    static func transfer(from row: SQLRow) throws -> Transfer {
        guard let status = TransferStatus(rawValue: try row.string("status")) else {
            throw DatabaseError.decoding(column: "status")
        }
        let decoder = JSONDecoder()
        let quote = try row.optionalString("quote").map { text in
            do { return try decoder.decode(TransferQuote.self, from: Data(text.utf8)) } catch {
                throw DatabaseError.decoding(column: "quote")
            }
        }
        let challenge = try row.optionalString("challenge").map { text in
            do { return try decoder.decode(TransferChallenge.self, from: Data(text.utf8)) } catch {
                throw DatabaseError.decoding(column: "challenge")
            }
        }
        let failure = try row.optionalString("error_code").map {
            TransferFailure(code: $0, message: try row.optionalString("error_message") ?? "")
        }
        return Transfer(
            id: try row.string("id"), payerId: try row.string("payer_id"), payeeId: try row.optionalString("payee_id"),
            payeePhone: try row.string("payee_phone"), payeeName: try row.optionalString("payee_name"),
            amount: try row.int("amount"),
            currency: try row.string("currency"), note: try row.optionalString("note"), status: status, quote: quote,
            quoteExpiresAt: try row.optionalInt("quote_expires_at"), challenge: challenge, failure: failure,
            authorizedBy: try row.optionalString("authorized_by"), sequence: try row.int("sequence"),
            idempotencyKey: try row.string("idempotency_key"), requestHash: try row.string("request_hash"),
            createdAt: try row.int("created_at"), updatedAt: try row.int("updated_at")
        )
    }

    /// How many transfers wait for the worker's next step.
    package func backlog() async throws -> Int64 {
        try await sql.first(
            "SELECT COUNT(*) AS n FROM transfers WHERE status IN ('PENDING_PAYEE_LOOKUP', 'PENDING_QUOTE', 'AUTHORIZED')"
        )?.int("n") ?? 0
    }
}

extension SQLExecutor {
    /// `TransferRepository` on this connection or transaction.
    package var transfers: TransferRepository { TransferRepository(sql: self) }
}
