import CountersignAPI
import CountersignClient
import CountersignCore
import Synchronization
import Testing

/// A thread-safe list of what a fake or callback saw.
final class Log<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])

    func append(_ item: Item) { items.withLock { $0.append(item) } }

    var all: [Item] { items.withLock { $0 } }
}

/// A local authenticator answering with the scripted outcomes in order; a call beyond the script
/// fails the test.
final class FakeAuthenticator: LocalAuthenticator {
    private let outcomes: Mutex<[Result<LocalAuthMethod, LocalAuthError>]>

    init(_ outcomes: Result<LocalAuthMethod, LocalAuthError>...) { self.outcomes = Mutex(outcomes) }

    var remaining: Int { outcomes.withLock { $0.count } }

    func authenticate(reason: String) async throws -> LocalAuthMethod {
        guard let outcome = outcomes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            Issue.record("unexpected local authentication: \(reason)")
            throw LocalAuthError.failed
        }
        return try outcome.get()
    }
}

/// A signer answering with the scripted outcomes in order; a call beyond the script fails the test.
final class FakeSigner: TransactionSigner {
    private let outcomes: Mutex<[Result<AuthenticationResponseJSON, SigningError>]>
    private let signed = Mutex<[String]>([])

    init(_ outcomes: Result<AuthenticationResponseJSON, SigningError>...) { self.outcomes = Mutex(outcomes) }

    /// The challenges signed so far.
    var challenges: [String] { signed.withLock { $0 } }

    func authorize(quote: TransferQuote, challenge: TransferChallenge) throws -> AuthenticationResponseJSON {
        signed.withLock { $0.append(challenge.challenge) }
        return try next("transfer \(quote.transferId)")
    }

    func authorize(airtime options: AuthenticationOptionsResponse) throws -> AuthenticationResponseJSON {
        signed.withLock { $0.append(options.challenge) }
        return try next("airtime \(options.transaction.productCode)")
    }

    private func next(_ what: String) throws -> AuthenticationResponseJSON {
        guard let outcome = outcomes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            Issue.record("unexpected signature: \(what)")
            throw SigningError.keyUnavailable("unscripted")
        }
        return try outcome.get()
    }
}

/// Idempotency keys `key-1`, `key-2`, … in order.
final class KeySource: Sendable {
    private let count = Mutex(0)

    func next() -> String {
        count.withLock {
            $0 += 1
            return "key-\($0)"
        }
    }
}

/// A queue between the test and the code under test: `receive` waits until something was sent,
/// or returns nil when its task is cancelled (a test past its time limit), so a broken hand-off
/// fails the test instead of hanging the run.
actor Channel<Item: Sendable> {
    private var buffer: [Item] = []
    private var waiting: [Int: CheckedContinuation<Item?, Never>] = [:]
    private var order: [Int] = []
    private var nextTicket = 0

    func send(_ item: Item) {
        guard let ticket = order.first else { return buffer.append(item) }
        order.removeFirst()
        waiting.removeValue(forKey: ticket)?.resume(returning: item)
    }

    @discardableResult
    func receive() async -> Item? {
        if !buffer.isEmpty { return buffer.removeFirst() }
        nextTicket += 1
        let ticket = nextTicket
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(returning: nil) }
                waiting[ticket] = continuation
                order.append(ticket)
            }
        } onCancel: {
            Task { await self.abandon(ticket) }
        }
    }

    private func abandon(_ ticket: Int) {
        order.removeAll { $0 == ticket }
        waiting.removeValue(forKey: ticket)?.resume(returning: nil)
    }
}
