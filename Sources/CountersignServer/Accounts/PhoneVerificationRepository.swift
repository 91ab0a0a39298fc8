import CountersignStore

/// One-time codes sent by SMS and the hourly SMS budget per calling code, in SQL both engines share.
package struct PhoneVerificationRepository: Sendable {
    let sql: any SQLExecutor

    package func insert(
        id: String, phone: String, purpose: String, userId: String?, codeHash: String, now: Int64, expiresAt: Int64
    ) async throws {
        try await sql.execute(
            """
            INSERT INTO phone_verifications (id, phone, purpose, user_id, code_hash, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """,
            [
                .text(id), .text(phone), .text(purpose), .text(userId), .text(codeHash),
                .integer(now), .integer(expiresAt),
            ])
    }

    /// Counts one try at the code, in one statement so parallel tries cannot overtake the count:
    /// nil (nothing counted) once it is used, expired or out of `maxTries`.
    package func countTry(id: String, now: Int64, maxTries: Int64) async throws
        -> PhoneVerificationTry?
    {
        try await sql.first(
            """
            UPDATE phone_verifications SET attempts = attempts + 1
            WHERE id = $1 AND consumed_at IS NULL AND expires_at > $2 AND attempts < $3
            RETURNING phone, purpose, user_id, code_hash
            """,
            [.text(id), .integer(now), .integer(maxTries)]
        ).map {
            PhoneVerificationTry(
                phone: try $0.string("phone"), purpose: try $0.string("purpose"),
                userId: try $0.optionalString("user_id"),
                codeHash: try $0.string("code_hash"))
        }
    }

    /// Spends the code: false if another request spent it first.
    package func consume(id: String, now: Int64) async throws -> Bool {
        try await sql.first(
            "UPDATE phone_verifications SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL RETURNING id",
            [.text(id), .integer(now)]) != nil
    }

    /// Counts one message to `callingCode` in the hour `hour`; false (nothing counted) when `limit`
    /// were sent already.
    package func spendBudget(callingCode: String, hour: Int64, limit: Int64) async throws
        -> Bool
    {
        try await sql.first(
            """
            INSERT INTO sms_budgets (calling_code, hour, sent) VALUES ($1, $2, 1)
            ON CONFLICT (calling_code, hour) DO UPDATE SET sent = sms_budgets.sent + 1 WHERE sms_budgets.sent < $3
            RETURNING sent
            """,
            [.text(callingCode), .integer(hour), .integer(limit)]) != nil
    }
}

extension SQLExecutor {
    /// `PhoneVerificationRepository` on this connection or transaction.
    package var phoneVerifications: PhoneVerificationRepository { PhoneVerificationRepository(sql: self) }
}
