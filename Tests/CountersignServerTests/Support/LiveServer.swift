import AsyncHTTPClient
import CountersignServer
import CountersignStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// A Countersign server running for real on 127.0.0.1 (an ephemeral port) over a fresh database,
/// with a clock the test can move. Every response it sends is checked against openapi.yaml
/// (`ResponseContract`); one that does not conform fails the test.
struct LiveServer: Sendable {
    static let origin = "https://app.countersign.test"
    static let rpId = "countersign.test"
    static let webhookSecret = "test-webhook-secret-0123456789abcdef012"

    let client: APIClient
    let services: AppServices
    let clock: ManualClock
    var database: any Database { services.database }

    /// The secret the test server signs verification tokens with.
    static let tokenSecret = Array("test-token-secret-0123456789abcdef0123".utf8)

    /// The configuration tests run with: fast PIN hashing, fixed test secrets, a test origin.
    static func configuration(dataDirectory: String) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.rpId = rpId
        configuration.origins = [origin]
        configuration.pinHashRounds = 1_000
        configuration.tokenSecret = tokenSecret
        configuration.pinPepper = Array("test-pin-pepper-0123456789abcdef012345".utf8)
        configuration.paymentWebhookSecret = Array(webhookSecret.utf8)
        configuration.transferPollMillis = 100
        configuration.streamFallbackSeconds = 1
        configuration.returnOrigins = ["https://app.example", "https://shop.test", "myapp:"]
        // Tests sign up and log in far faster than people do; the limits have their own test.
        configuration.rateLimits = .off
        // Many tests pay by PIN dozens of times; the allowance has its own tests (`PinAllowanceTests`).
        configuration.pinAllowance = PinAllowance(
            rules: ["NGN", "EUR"].reduce(into: [:]) { rules, currency in
                rules[currency] = .init(
                    maxAmount: 1_000_000_000, cumulativeAmount: 1_000_000_000, maxPayments: 1_000_000)
            })
        // No spending limits but where a test sets them (`SpendingLimitTests`).
        configuration.limitTiers = LimitTiers(tiers: ["standard": [:]], defaultTier: "standard")
        // Some tests move the clock on by days (bid expiry); the idle limit has its own test.
        configuration.sessionIdleSeconds = 30 * 86_400
        return configuration
    }

    /// Starts a server on `engine`, runs `body` against it, runs the production ledger audit
    /// (`countersign audit`) on what the test left, at the test's clock, then shuts the server down
    /// gracefully: every test that passes through a server leaves sound books. `audit: false` is for the few
    /// tests that break the books on purpose (the audit's own).
    static func run<T: Sendable>(
        _ engine: DatabaseEngine, supplier: any AirtimeSupplier = SimulatedAirtimeSupplier(), audit: Bool = true,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        try await TestDatabase.with(engine, migrate: false) { database in
            var configuration = configuration(dataDirectory: FileManager.default.temporaryDirectory.path)
            configure(&configuration)
            let clock = ManualClock()
            let port = AsyncStream<Int>.makeStream()
            let contract = ContractViolations()
            let services = try await CountersignApp.makeServices(
                configuration: configuration, database: database, clock: clock.wallClock, supplier: supplier,
                logger: TestDatabase.logger)
            let app = CountersignApp.build(
                services: services, logger: TestDatabase.logger,
                outermost: ResponseContract(document: .repository, violations: contract),
                onServerRunning: { channel in port.continuation.yield(channel.localAddress?.port ?? 0) }
            )
            let group = ServiceGroup(configuration: .init(services: [app], logger: TestDatabase.logger))
            return try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = port.stream.makeAsyncIterator()
                guard let boundPort = await iterator.next() else { throw TestFailure("server did not start") }
                let http = HTTPClient(
                    eventLoopGroupProvider: .singleton,
                    configuration: .init(
                        connectionPool: .init(
                            idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 256)))
                let server = LiveServer(
                    client: APIClient(baseURL: "http://127.0.0.1:\(boundPort)", http: http), services: services,
                    clock: clock)
                do {
                    let result = try await body(server)
                    // Before the shutdown, which closes the store.
                    if audit { try await LedgerAudit.check(database, now: clock.wallClock.nowMillis()) }
                    try await http.shutdown()
                    await group.triggerGracefulShutdown()
                    try await tasks.waitForAll()
                    // Every response the test provoked must be one openapi.yaml documents.
                    for violation in contract.all {
                        Issue.record("a response does not conform to openapi.yaml: \(violation)")
                    }
                    return result
                } catch {
                    try? await http.shutdown()
                    await group.triggerGracefulShutdown()
                    try? await tasks.waitForAll()
                    throw error
                }
            }
        }
    }
}
