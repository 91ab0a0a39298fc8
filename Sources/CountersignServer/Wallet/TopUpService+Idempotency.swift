import CountersignAPI
import CountersignCore
import CountersignStore

/// What `POST /user/topup` answers: the top-up settled now, or the answer its key already has,
/// replayed byte for byte.
package enum TopUpAnswer: Sendable {
    case settled(SettledTopUp)
    case replayed(status: Int, json: String)
}

extension TopUpService {
    /// `POST /user/topup`, whole: the shape checked (400 before anything is read or written); a key
    /// already used answered with its stored answer (another body under the key is 422, one still
    /// running 409); else the top-up authorized and executed, the key claimed in the debit's
    /// transaction and completed with the answer in the settlement's.
    ///
    /// A retry with the PIN is answered before the PIN is judged again. A retry with a token or an
    /// assertion, the usual case being a first try, goes ahead without reading the key first: it
    /// meets the key in the debit's transaction, or, refused before it (its token spent or expired
    /// by now, its challenge used), is answered from the key then. Either way nothing is authorized
    /// twice: the token or challenge is spent in the same transaction that claims the key.
    package func topUp(userId: String, _ request: TopUpRequest, idempotencyKey: String?, session: LiveSession?)
        async throws -> TopUpAnswer
    {
        let (intent, factor) = try validate(request)
        let useCashback = request.useCashback ?? false
        guard let key = idempotencyKey else {
            return .settled(
                try await topUp(
                    userId: userId, intent: intent, factor: factor, useCashback: useCashback, session: session))
        }
        let idempotent = IdempotentRequest(
            key: key, canonical: Self.canonicalRequest(intent: intent, useCashback: useCashback))
        let fingerprint = idempotent.fingerprint
        // A read, not a write: the claim itself is made in the debit's transaction.
        let known = { @Sendable in
            try await database.read { sql in
                try await sql.idempotency.lookup(userId: userId, key: key, requestHash: fingerprint)
            }
        }
        let byPIN = if case .pin = factor { true } else { false }
        if byPIN, let claim = try await known() { return try Self.answer(claim) }
        do {
            return .settled(
                try await topUp(
                    userId: userId, intent: intent, factor: factor, useCashback: useCashback, session: session,
                    idempotency: IdempotencyTicket(key: key, requestHash: fingerprint, owner: instance.id),
                    countingRefusals: byPIN))
        } catch let taken as IdempotencyKeyTaken {
            return try Self.answer(taken.claim)
        } catch let refused as APIError where !byPIN {
            if let claim = try await known() { return try Self.answer(claim) }
            metrics.payment(kind: "topup", outcome: refused.code.rawValue)
            throw refused
        }
    }

    /// What makes two top-ups "the same request": the canonical payment intent and whether cashback
    /// is spent, never the factor that authorized it (token, assertion or PIN) (a different PIN once answered 422 and the right
    /// one replayed: a PIN oracle).
    static func canonicalRequest(intent: PaymentIntent, useCashback: Bool) -> [UInt8] {
        Array(intent.canonicalBytes) + [useCashback ? 1 : 0]
    }

    /// The answer to a top-up whose key a request has already used.
    static func answer(_ claim: IdempotencyClaim) throws(APIError) -> TopUpAnswer {
        switch claim {
        case .replay(let status, let stored): return .replayed(status: status, json: stored)
        case .inFlight, .claimed: throw IdempotentRequest.inFlight
        // `.existing` is another endpoint's key (its fingerprint never matches a top-up's).
        case .mismatch, .existing: throw IdempotentRequest.reused
        }
    }
}
