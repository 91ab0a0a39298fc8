import CountersignAPI
import CountersignCore
import WebAuthn

extension TransferService {
    /// `AUTHORIZATION_REQUIRED` → `AUTHORIZED` on a device signature over the transfer's challenge,
    /// which is `SHA-256(nonce ‖ canonical quote)`: the payer signed exactly the fees shown.
    ///
    /// A malformed body is 400 and changes nothing. A signature that does not verify, from a
    /// credential that is not the payer's, or over another challenge ends the transfer in `FAILED`
    /// (a refused authorization is never retried on the same quote) and counts towards the payment
    /// lock. A lapsed quote ends it in `EXPIRED`.
    package func authorize(
        payerId: String, id: String, _ body: AuthenticationResponseJSON, session: LiveSession? = nil
    ) async throws -> Transfer {
        let assertion = try DecodedAssertion(body)

        let current = try await transfer(payerId: payerId, id: id)
        let user = try await biometric.loadUser(payerId)
        let now = clock.nowMillis()
        let pinAllowance = configuration.pinAllowance
        guard current.status.canMove(to: .authorized), let challenge = current.challenge,
            let expected = Base64URL.decode(challenge.challenge)
        else {
            throw current.stateRefusal
        }
        if let expiresAt = current.quoteExpiresAt, now >= expiresAt {
            if try await database.transaction({ sql in
                try await writer.commit(try current.moved(to: .expired, now: now), on: sql)
            }) {
                feed.signal(id)
            }
            throw APIError(.quoteExpired, "The quote expired; start the transfer again.")
        }
        try lock.ensureUnlocked(user)

        let credential = try await database.read { sql in
            try await sql.credentials.find(id: assertion.credentialId)
        }
        // A key or device still in its cooling-off pays at most the new-device limit; the transfer
        // stays open for a key that may.
        if let credential, credential.userId == payerId {
            try biometric.newDeviceLimit.check(
                amount: current.quote?.total ?? current.amount, session: session, key: credential)
        }
        let refusal: WebAuthnError?
        var verified: VerifiedAssertion?
        if let credential, credential.userId == payerId, credential.flaggedAt == nil {
            // Secure Payment Confirmation must have shown this quote's total to this payee.
            switch try await biometric.checkAssertion(
                credential: credential, challenge: expected,
                userVerificationRequired: challenge.userVerification == "required",
                clientData: assertion.clientData, authenticatorData: assertion.authenticatorData,
                signature: assertion.signature,
                payment: biometric.paymentConfirmation.expected(transfer: current)
            ) {
            case .failure(let error): refusal = error
            case .success(let checked) where checked.flags.backupEligible != credential.backupEligible:
                refusal = WebAuthnError(.invalidBackupFlags, "backup eligibility differs from registration")
            case .success(let checked):
                refusal = nil
                verified = checked
            }
        } else {
            refusal = WebAuthnError(
                .credentialIdMismatch, "the credential is not one of the payer's usable credentials")
        }
        if let refusal, refusal.isMalformedInput {
            throw APIError(refusal)
        }
        if let credential, let verified, refusal == nil {
            do {
                try configuration.passkeyPolicy.checkPayment(flags: verified.flags)
            } catch {
                // Refused by policy, not a failed signature: the key's backup state is recorded,
                // the transfer stays open for another key, and nothing counts towards the lock.
                try await database.transaction { sql in
                    try await sql.credentials.recordBackupState(
                        id: credential.id, backupState: verified.flags.backupState)
                }
                throw error
            }
            do {
                let authorized = try await database.transaction { sql -> Transfer? in
                    // The transfer first: a concurrent copy of this authorization (the payer's own
                    // retry) loses here and is answered as a spent challenge is, counting nothing.
                    var next = try current.moved(to: .authorized, now: now)
                    next.authorizedBy = credential.id
                    guard try await writer.commit(next, on: sql) else { return nil }
                    guard
                        try await sql.credentials.recordUse(
                            id: credential.id, signCount: Int64(verified.signCount),
                            backupState: verified.flags.backupState, now: now)
                    else { throw CounterOvertaken() }
                    if user.failedPaymentAuths > 0 { try await sql.users.resetPaymentFailures(userId: payerId) }
                    // Two factors (the key and its user verification): the PIN allowance starts again.
                    if verified.flags.userVerified { try await pinAllowance.renew(userId: payerId, on: sql) }
                    return next
                }
                guard let authorized else { throw try await spent(payerId: payerId, id: id) }
                feed.signal(id)
                return authorized
            } catch is CounterOvertaken {
                // Another assertion, for another challenge, moved the counter past ours: a cloned key.
                try await biometric.flag(credential, reason: WebAuthnError.Code.signCountRegression.rawValue, now: now)
            }
        }
        throw try await fail(current, credential: credential, refusal: refusal, now: now)
    }

    /// The answer to an authorization that lost a race with another for the same transfer: the
    /// transfer's state now, as a later retry would be told.
    private func spent(payerId: String, id: String) async throws -> APIError {
        try await transfer(payerId: payerId, id: id).stateRefusal
    }

    /// Ends the transfer in `FAILED`, flags a credential whose counter went back, counts the
    /// failure; returns the error to answer with (401, or 423 if this failure locked payments).
    private func fail(_ current: Transfer, credential: StoredCredential?, refusal: WebAuthnError?, now: Int64)
        async throws -> APIError
    {
        let failed = try current.moved(
            to: .failed, now: now,
            failure: TransferFailure(
                .authorizationFailed, message: "The device signature did not authorize this transfer."))
        let answer = try await database.transaction { sql -> APIError? in
            // Moved on meanwhile: a concurrent copy of this authorization won (its counter is why
            // ours looks replayed). Not an attack on the payer's key: nothing is flagged or counted.
            guard try await writer.commit(failed, on: sql) else { return nil }
            if let credential, refusal?.code == .signCountRegression {
                try await sql.credentials.flag(
                    id: credential.id, reason: WebAuthnError.Code.signCountRegression.rawValue, now: now)
            }
            return try await lock.recordFailure(userId: current.payerId, failure: APIError.authorizationFailed, on: sql)
        }
        guard let answer else { return try await spent(payerId: current.payerId, id: current.id) }
        feed.signal(current.id)
        return answer
    }
}

/// Inside the authorizing transaction: the key's counter was already past this assertion's.
private struct CounterOvertaken: Error {}
