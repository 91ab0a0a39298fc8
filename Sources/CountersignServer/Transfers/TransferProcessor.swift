import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore
import Logging
import ServiceLifecycle
import Synchronization

/// The background worker that moves transfers on: payee lookup, quote, execution, and the expiry
/// of quotes nobody authorized. It takes one transfer at a time in its own transaction; on
/// PostgreSQL the claim is `FOR UPDATE SKIP LOCKED`, so several server processes share the work
/// and each step happens once. Every step is also guarded by the transfer's version.
package struct TransferProcessor: Service {
    let database: any Database
    let clock: WallClock
    /// Where transfers' changes are signalled: the same feed as `TransferService`'s.
    let feed: TransferFeed
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let storeReadiness: StoreReadiness
    let logger: Logger
    /// Consecutive failed steps per transfer, in this process.
    let attempts = StepAttempts()

    /// Works until graceful shutdown: a pass whenever a transfer changes here (or, on PostgreSQL,
    /// in another process), and at least every `transferPollMillis` for lapsed quotes.
    package func run() async throws {
        let signals = feed.workSignals
        let interval = Duration.milliseconds(configuration.transferPollMillis)
        try? await cancelWhenGracefulShutdown {
            await storeReadiness.wait()
            // A timer that rings the doorbell, so lapsed quotes expire without any other traffic.
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        feed.nudgeWorker()
                    }
                }
                for await _ in signals {
                    await drain()
                    await countBacklog()
                }
                group.cancelAll()
            }
        }
    }

    /// Records how many transfers wait for this worker (`PENDING_PAYEE_LOOKUP`, `PENDING_QUOTE`,
    /// `AUTHORIZED`) in `countersign_worker_backlog`.
    private func countBacklog() async {
        let waiting = try? await database.read { sql in
            try await sql.transfers.backlog()
        }
        if let waiting { metrics.backlog(worker: "transfers", count: Int(waiting)) }
    }

    /// Steps transfers until none is due; returns how many steps it took.
    @discardableResult
    package func drain() async -> Int {
        var steps = 0
        while !Task.isCancelled {
            do {
                guard let moved = try await step() else { return steps }
                steps += 1
                feed.signal(moved, wakeWorker: false)
            } catch {
                if !Task.isCancelled { logger.error("transfer step failed", metadata: ["error": "\(error)"]) }
                return steps
            }
        }
        return steps
    }

    /// Claims one due transfer and moves it one step; returns its id, or nil when nothing is due.
    package func step() async throws -> String? {
        let now = clock.nowMillis()
        let lockSuffix = database.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let parked = attempts.parked
        do {
            return try await database.transaction { sql -> String? in
                guard
                    let id = try await sql.transfers.claimWork(now: now, excluding: parked, lockSuffix: lockSuffix)
                else { return nil }
                let current: Transfer
                let next: Transfer
                do {
                    guard let found = try await sql.transfers.find(id: id) else { return nil }
                    current = found
                    next = try await advance(current, now: now, on: sql)
                } catch let refused as ExecutionRefused {
                    throw refused
                } catch {
                    throw StepFailed(transferId: id, underlying: error)
                }
                guard try await writer.commit(next, on: sql) else { return nil }
                return current.id
            }
        } catch let refused as ExecutionRefused {
            // The money could not move: the transaction rolled back; record the failure on its own.
            return try await fail(refused.transferId, refused.failure, now: now) ? refused.transferId : nil
        } catch let failed as StepFailed {
            // A transfer whose step keeps failing must not block the queue: after a few attempts it
            // ends in FAILED (nothing has moved before execution commits).
            guard attempts.record(failed.transferId) >= Self.maximumAttempts else { throw failed.underlying }
            logger.error(
                "transfer step failed repeatedly; failing the transfer",
                metadata: ["transfer": "\(failed.transferId)", "error": "\(failed.underlying)"])
            let failure = TransferFailure(
                .processingFailed, message: "The transfer could not be processed; nothing was charged.")
            do {
                return try await fail(failed.transferId, failure, now: now) ? failed.transferId : nil
            } catch {
                // Not even readable: leave it to an operator, and stop claiming it in this process.
                attempts.park(failed.transferId)
                logger.critical(
                    "transfer cannot be read; parked for an operator",
                    metadata: ["transfer": "\(failed.transferId)", "error": "\(error)"])
                return nil
            }
        }
    }

    /// Saves each step's version and announces it, as the payer's commands do.
    private var writer: TransferWriter { TransferWriter(database: database, metrics: metrics) }

    /// Attempts at one transfer's step before it is failed.
    static let maximumAttempts = 3

    /// Moves the transfer to `FAILED` in a transaction of its own, if it still may.
    private func fail(_ transferId: String, _ failure: TransferFailure, now: Int64) async throws -> Bool {
        try await database.transaction { sql -> Bool in
            guard let current = try await sql.transfers.find(id: transferId), current.status.canMove(to: .failed)
            else { return false }
            return try await writer.commit(
                try current.moved(to: .failed, now: now, failure: failure), on: sql)
        }
    }

    /// The next version of `current`.
    private func advance(_ current: Transfer, now: Int64, on sql: any SQLExecutor) async throws -> Transfer {
        switch current.status {
        case .pendingPayeeLookup:
            return try await lookUpPayee(current, now: now, on: sql)
        case .pendingQuote:
            return try await quote(current, now: now, on: sql)
        case .authorized:
            return try await execute(current, now: now, on: sql)
        case .authorizationRequired:
            return try current.moved(to: .expired, now: now)
        case .success, .failed, .declined, .expired, .cancelled:
            throw DatabaseError.decoding(column: "status")
        }
    }

    private func lookUpPayee(_ current: Transfer, now: Int64, on sql: any SQLExecutor) async throws -> Transfer {
        guard let payee = try await sql.users.find(phone: current.payeePhone),
            payee.id != current.payerId
        else {
            return try Self.failed(
                current, now: now, code: .payeeNotFound,
                message: "No Countersign wallet is registered to \(current.payeePhone).")
        }
        // An account that never proved its number may be a squatter's: nothing is sent to it.
        guard payee.phoneVerifiedAt != nil else {
            return try Self.failed(
                current, now: now, code: .payeeUnverified,
                message:
                    "\(current.payeePhone) has not confirmed its number on Countersign yet: ask them to sign in once.")
        }
        var next = try current.moved(to: .pendingQuote, now: now)
        next.payeeId = payee.id
        // Enough to recognise a friend, not a directory of names by number: the whole name once paid.
        next.payeeName = DisplayText.partialName(payee.name)
        return next
    }

    private func quote(_ current: Transfer, now: Int64, on sql: any SQLExecutor) async throws -> Transfer {
        guard let fees = configuration.feeSchedule.fees(amount: current.amount, currency: current.currency) else {
            return try Self.failed(
                current, now: now, code: .unsupportedCurrency,
                message: "There is no fee schedule for \(current.currency).")
        }
        let usable = try await sql.credentials.list(userId: current.payerId).filter {
            $0.flaggedAt == nil
        }
        guard !usable.isEmpty else {
            return try Self.failed(
                current, now: now, code: .noRegisteredCredential, message: "The payer has no usable device key.")
        }
        let totalFees = fees.reduce(0) { $0 + $1.amount }
        // The balance may have fallen since the transfer was created: no quote the payer cannot pay.
        let balance = try await sql.ledger.balance(
            userId: current.payerId, kind: .wallet, currency: current.currency)
        guard balance >= current.amount + totalFees else {
            return try Self.failed(
                current, now: now, code: .insufficientFunds,
                message: "Your balance is too low for this amount and its fees; nothing was charged.")
        }
        // The limits as they are now, before the payer is asked to sign; execution checks again.
        if let refusal = try await limitRefusal(current, total: current.amount + totalFees, now: now, on: sql) {
            return try Self.failed(current, now: now, code: refusal.code, message: refusal.message)
        }
        // Whole seconds, so the signed `expiresAt` text and the stored deadline agree exactly.
        let expiresAt = (now + configuration.quoteSeconds * 1000) / 1000 * 1000
        let quote = TransferQuote(
            quoteId: Identifier.make("qt"), transferId: current.id, payeePhone: current.payeePhone,
            amount: current.amount, fees: fees,
            totalFees: totalFees, total: current.amount + totalFees, currency: current.currency,
            expiresAt: WallClock.iso8601(millis: expiresAt)
        )
        let nonce = SecureRandom.bytes(32)
        var next = try current.moved(to: .authorizationRequired, now: now)
        next.quote = quote
        next.quoteExpiresAt = expiresAt
        let challenge = Base64URL.encode(quote.challenge(nonce: nonce))
        let confirmation = PaymentConfirmation(configuration: configuration)
        next.challenge = TransferChallenge(
            challenge: challenge, nonce: Base64URL.encode(nonce), rpId: configuration.rpId,
            allowCredentials: usable.map {
                CredentialDescriptor(id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            userVerification: configuration.userVerification, timeout: Int(configuration.quoteSeconds * 1000),
            // Shown to the page; authorization recomputes it from the quote rather than trusting this copy.
            securePaymentConfirmation: confirmation.expected(transfer: next).map {
                confirmation.data(
                    $0, challenge: challenge, credentialIds: usable.map(\.id),
                    timeout: Int(configuration.quoteSeconds * 1000))
            }
        )
        return next
    }

    /// One ledger entry moves the total off the payer's wallet, the amount onto the payee's and
    /// the fees onto the fee account; both wallets get a history line.
    private func execute(_ current: Transfer, now: Int64, on sql: any SQLExecutor) async throws -> Transfer {
        guard let quote = current.quote, let payeeId = current.payeeId else {
            throw ExecutionRefused(
                transferId: current.id,
                failure: .init(
                    .internalInconsistency, message: "The authorized transfer has no quote or payee."))
        }
        let payer = LedgerRepository.accountId(userId: current.payerId, kind: .wallet, currency: current.currency)
        let payee = LedgerRepository.accountId(userId: payeeId, kind: .wallet, currency: current.currency)
        // Both wallets locked before the limits are read, so no parallel transfer changes what they count.
        try await SpendingLimits.lock([payer, payee], database: database, on: sql)
        if let refusal = try await limitRefusal(current, total: quote.total, now: now, on: sql) {
            throw ExecutionRefused(
                transferId: current.id, failure: .init(refusal.code, message: refusal.message))
        }
        var postings = [
            Posting(accountId: payer, amount: -quote.total), Posting(accountId: payee, amount: quote.amount),
        ]
        if quote.totalFees > 0 {
            postings.append(Posting(accountId: SystemAccount.transferFees(current.currency), amount: quote.totalFees))
        }
        do {
            try await sql.ledger.post(
                LedgerEntry(kind: .transfer, reference: current.id, postings: postings), now: now)
        } catch LedgerError.insufficientFunds {
            throw ExecutionRefused(
                transferId: current.id,
                failure: .init(
                    .insufficientFunds, message: "The wallet balance is too low for this transfer and its fees."
                ))
        }
        for (userId, type, amount, counterparty) in [
            (current.payerId, WalletTransactionType.transferOut, quote.total, current.payeePhone),
            (payeeId, WalletTransactionType.transferIn, quote.amount, nil),
        ] {
            try await sql.walletTransactions.insert(
                WalletTransaction(
                    id: Identifier.make("tx"), userId: userId, type: type, status: .completed, amount: amount,
                    currency: current.currency,
                    productCode: nil, recipientPhone: counterparty, supplierSlug: nil,
                    authorizedBy: type == .transferOut ? "biometric" : nil,
                    cashbackUsed: 0, cashbackEarned: 0, externalReference: current.id, idempotencyKey: nil,
                    failureCode: nil, createdAt: now, updatedAt: now
                ))
        }
        var done = try current.moved(to: .success, now: now)
        if let payee = try await sql.users.find(id: payeeId) {
            done.payeeName = DisplayText.sanitized(payee.name)
        }
        return done
    }

    /// The payer's spending limits on `total`, then the payee's maximum balance on the amount: the
    /// refusal, or nil when both allow it.
    private func limitRefusal(_ current: Transfer, total: Int64, now: Int64, on sql: any SQLExecutor) async throws
        -> APIError?
    {
        let limits = SpendingLimits(tiers: configuration.limitTiers)
        do {
            try await limits.checkOutgoing(
                userId: current.payerId, currency: current.currency, amount: total, now: now, on: sql)
            if let payeeId = current.payeeId {
                try await limits.checkIncoming(
                    userId: payeeId, currency: current.currency, amount: current.amount, now: now, on: sql)
            }
            return nil
        } catch let refusal as APIError {
            return refusal
        }
    }

    private static func failed(_ current: Transfer, now: Int64, code: ErrorCode, message: String) throws -> Transfer {
        try current.moved(to: .failed, now: now, failure: TransferFailure(code, message: message))
    }
}

/// A step threw for a reason other than a refusal (a bug, the store failing).
struct StepFailed: Error {
    let transferId: String
    let underlying: any Error
}

/// Counts failed steps per transfer, and the transfers this process no longer claims.
final class StepAttempts: Sendable {
    private let state = Mutex<(counts: [String: Int], parked: Set<String>)>(([:], []))

    /// Counts one more failure of `transferId` and returns the count.
    func record(_ transferId: String) -> Int {
        state.withLock { state in
            let count = state.counts[transferId, default: 0] + 1
            state.counts[transferId] = count
            return count
        }
    }

    /// Stops claiming `transferId` (at most 100 are kept; an operator must look at them).
    func park(_ transferId: String) {
        state.withLock { state in
            if state.parked.count < 100 { state.parked.insert(transferId) }
        }
    }

    /// The transfers not to claim.
    var parked: [String] { state.withLock { Array($0.parked).sorted() } }
}

/// Execution was refused (the ledger would overdraw the payer): the step's transaction must roll
/// back before the failure is recorded.
struct ExecutionRefused: Error {
    let transferId: String
    let failure: TransferFailure
}
