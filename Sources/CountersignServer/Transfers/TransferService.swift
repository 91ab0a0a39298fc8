import CountersignAPI
import CountersignCore
import CountersignStore
import WebAuthn

/// Transfers as the payer drives them: create, read, and the commands authorize, decline and
/// cancel. Every other move is the background worker's (`TransferProcessor`).
package struct TransferService: Sendable {
    let database: any Database
    let lock: PaymentLock
    let biometric: BiometricService
    let feed: TransferFeed
    /// This process: the owner its idempotency claims record.
    let instance: ServerInstance
    let clock: WallClock
    let configuration: ServerConfiguration
    let metrics: ServerMetrics

    /// The longest note a payer may attach.
    static let maximumNoteLength = 140

    /// Creates a transfer in `PENDING_PAYEE_LOOKUP`. A retry with the same key and request returns
    /// the transfer the first call made, as it is now (`replayed`); the same key with another request
    /// (or used before for a top-up) is 422. The key is claimed and completed in the transaction that
    /// inserts the transfer, so it never stays in flight. The request is fingerprinted as it is read
    /// (the payee's number in E.164), so a retry that writes the same number another way is the same.
    package func create(
        payerId: String, _ request: CreateTransferRequest, idempotencyKey: String, session: LiveSession? = nil
    ) async throws -> (transfer: Transfer, replayed: Bool) {
        guard let payee = PhoneNumber(request.payeePhone, region: configuration.phoneRegion) else {
            throw APIError(
                .invalidPhone, "payeePhone must be a phone number: +country code and number, or a national number.")
        }
        guard request.amount > 0, request.amount <= configuration.feeSchedule.maximumAmount else {
            throw APIError(
                .invalidAmount,
                "amount must be between 1 and \(configuration.feeSchedule.maximumAmount) minor units "
                    + "(at most \(Currency.named(configuration.currency).format(configuration.feeSchedule.maximumAmount)))."
            )
        }
        guard request.currency == configuration.currency else {
            throw APIError(.unsupportedCurrency, "Transfers are in \(configuration.currency) only.")
        }
        if let note = request.note {
            guard note.unicodeScalars.count <= Self.maximumNoteLength,
                !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw APIError(
                    .invalidNote,
                    "note must be at most \(Self.maximumNoteLength) characters, without control characters.")
            }
        }
        // A new device over the limit is told before a quote, not after the signature.
        try biometric.newDeviceLimit.check(amount: request.amount, session: session)
        var normalized = request
        normalized.payeePhone = payee.value
        let idempotent = IdempotentRequest(
            key: idempotencyKey, canonical: Array(try CanonicalJSON.string(normalized).utf8))
        let payer = try await biometric.loadUser(payerId)
        guard payer.phone != payee.value else { throw APIError(.selfTransfer, "You cannot send money to yourself.") }
        let now = clock.nowMillis()
        let usable = try await database.read { sql in try await sql.credentials.list(userId: payerId) }.filter {
            $0.flaggedAt == nil
        }
        guard !usable.isEmpty else {
            throw APIError(.noRegisteredCredential, "Register a device key before sending money.")
        }
        let transfer = Transfer(
            id: Identifier.make("tr"), payerId: payerId, payeeId: nil, payeePhone: payee.value, payeeName: nil,
            amount: request.amount,
            currency: request.currency, note: request.note.map(DisplayText.sanitized), status: .pendingPayeeLookup,
            quote: nil,
            quoteExpiresAt: nil, challenge: nil,
            failure: nil, authorizedBy: nil, sequence: 1, idempotencyKey: idempotent.key,
            requestHash: idempotent.fingerprint,
            createdAt: now, updatedAt: now
        )
        let owner = instance.id
        let (stored, created) = try await database.transaction { sql in
            try await sql.idempotency.claimResource(
                idempotent, userId: payerId, owner: owner, now: now, id: \.id,
                find: { try await sql.transfers.find(id: $0) },
                make: {
                    // Checked only for a new transfer: a retry of one that was created replays it.
                    try lock.ensureUnlocked(payer)
                    try await ensurePayable(payerId: payerId, payee: payee, request: request, on: sql)
                    // The transfers table's own unique key on (payer, key) stays as a second guard.
                    return try await sql.transfers.insert(transfer) ? transfer : nil
                })
        }
        guard let stored else { throw IdempotentRequest.inFlight }
        if created { feed.signal(stored.id) }
        return (stored, !created)
    }

    /// The payer's transfer; 404 for anyone else, so ids reveal nothing.
    package func transfer(payerId: String, id: String) async throws -> Transfer {
        guard id.utf8.count <= 64,
            let transfer = try await database.read({ sql in try await sql.transfers.find(id: id) }),
            transfer.payerId == payerId
        else {
            throw APIError(.transferNotFound, "No such transfer.")
        }
        return transfer
    }

    /// The payer refuses the fees: `AUTHORIZATION_REQUIRED` → `DECLINED`.
    package func decline(payerId: String, id: String) async throws -> Transfer {
        try await command(payerId: payerId, id: id, to: .declined)
    }

    /// The payer gives up before authorizing: a pending step or `AUTHORIZATION_REQUIRED` → `CANCELLED`.
    package func cancel(payerId: String, id: String) async throws -> Transfer {
        try await command(payerId: payerId, id: id, to: .cancelled)
    }

    /// Moves the payer's transfer to `status`; 409 `invalid_state` where the state machine forbids it.
    private func command(payerId: String, id: String, to status: TransferStatus) async throws -> Transfer {
        // The worker may move the transfer between our read and our write; the write is guarded
        // by the version, so read again and retry a few times before answering.
        for _ in 0..<5 {
            let current = try await transfer(payerId: payerId, id: id)
            let next = try current.moved(to: status, now: clock.nowMillis())
            if try await database.transaction({ sql in try await writer.commit(next, on: sql) }) {
                feed.signal(id)
                return next
            }
        }
        throw APIError(.transferBusy, "The transfer is changing; try again.")
    }

    /// Saves each command's version and announces it, as the worker's steps do.
    var writer: TransferWriter { TransferWriter(database: database, metrics: metrics) }
}
