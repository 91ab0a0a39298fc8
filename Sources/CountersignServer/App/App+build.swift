import Foundation
import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import WebAuthn

/// Builds the Countersign application: store, services, routes and middleware.
package enum CountersignApp {
    /// Opens the store the configuration names: PostgreSQL for a URL, else SQLite in the data directory.
    package static func openDatabase(_ configuration: ServerConfiguration, logger: Logger) async throws -> any Database {
        if let url = configuration.databaseURL {
            return try PostgresDatabase(url: url, logger: logger)
        }
        let path = try DataDirectory.prepareDatabaseFile(in: configuration.dataDirectory)
        return try await SQLiteDatabase.open(path: path, logger: logger)
    }

    /// The services the HTTP layer and the operator commands share.
    package static func makeServices(
        configuration: ServerConfiguration, database: any Database, clock: WallClock = .system,
        supplier: any AirtimeSupplier = SimulatedAirtimeSupplier(), logger: Logger
    ) async throws -> AppServices {
        let pepper = try SecretStore.secret(named: "pin-pepper", configured: configuration.pinPepper, dataDirectory: configuration.dataDirectory)
        let tokenSecret = try SecretStore.secret(named: "token-hmac", configured: configuration.tokenSecret, dataDirectory: configuration.dataDirectory)
        let webhookSecret = try SecretStore.secret(named: "payment-webhook", configured: configuration.paymentWebhookSecret, dataDirectory: configuration.dataDirectory)
        let returnURLs = try ReturnURLPolicy(allowing: configuration.returnOrigins.isEmpty ? [configuration.publicBaseURL] : configuration.returnOrigins)
        let webFiles: WebFiles? = switch configuration.web {
        case .bundled: try WebFiles.bundled()
        case .directory(let path): try WebFiles.directory(path)
        case .off: nil
        }
        return await AppServices(
            configuration: configuration, database: database, clock: clock, supplier: supplier, pepper: pepper, tokenSecret: tokenSecret,
            webhookSecret: webhookSecret, returnURLs: returnURLs, webFiles: webFiles, logger: logger
        )
    }

    /// The HTTP application. Migrations run before the server accepts traffic.
    package static func build(
        configuration: ServerConfiguration, database: any Database, clock: WallClock = .system,
        supplier: any AirtimeSupplier = SimulatedAirtimeSupplier(), logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let services = try await makeServices(configuration: configuration, database: database, clock: clock, supplier: supplier, logger: logger)
        var app = Application(
            router: makeRouter(services),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "countersign"),
            services: [
                database, services.instanceLease, services.pendingTopUpSweeper, services.transferProcessor, services.transferChangeListener,
                services.pendingOrderSweeper,
            ],
            onServerRunning: onServerRunning,
            logger: logger
        )
        app.beforeServerStarts {
            try await services.prepareStore()
            // Before traffic: a retry of a request the last process died in must find its claim free.
            try await services.instanceLease.start()
        }
        return app
    }

    /// Every route, behind the error and session middleware.
    package static func makeRouter(_ services: AppServices) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        let routes = RouteMethods()
        let origins = BrowserOrigins(configuration: services.configuration)
        let cookie = SessionCookie(configuration: services.configuration)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: BrowserPolicyMiddleware(origins: origins))
        router.add(middleware: ErrorMiddleware(routes: routes))
        if let files = services.webFiles { router.add(middleware: WebFilesMiddleware(files: files)) }
        let sessions = SessionMiddleware(accounts: services.accounts, cookie: cookie, origins: origins)
        SystemController(database: services.database, paymentsInTestMode: services.configuration.paymentsInTestMode).addRoutes(to: router)
        AuthController(accounts: services.accounts, biometric: services.biometric, throttle: services.throttle, cookie: cookie).addRoutes(to: router.group("auth"), sessions: sessions)
        // Spike (issue 11): COUNTERSIGN_SPIKE_OPENAPI=1 serves the benchmark's hot path through
        // swift-openapi-generator's code (see OpenAPISpike/); everything else stays hand-routed.
        // `compact` does the same with the runtime's JSON encoder told not to pretty-print or sort.
        let spike = ProcessInfo.processInfo.environment["COUNTERSIGN_SPIKE_OPENAPI"]
        let generatedHotPath = spike == "1" || spike == "compact"
        let biometric = BiometricController(biometric: services.biometric, throttle: services.throttle)
        biometric.addRoutes(to: router.group("biometric").add(middleware: sessions), hotPath: !generatedHotPath)
        let user = UserController(
            throttle: services.throttle,
            topUps: services.topUps, wallets: services.wallets, idempotency: IdempotencySQLRepository(),
            database: services.database, clock: services.clock, instance: services.instance
        )
        user.addRoutes(to: router.group("user").add(middleware: sessions), hotPath: !generatedHotPath)
        if generatedHotPath {
            let api = HotPathAPI(biometric: services.biometric, throttle: services.throttle, user: user)
            // Registration fails only for a server URL the generated code cannot parse; it has none.
            let configuration = spike == "compact" ? OpenAPIRuntime.Configuration(jsonEncodingOptions: []) : OpenAPIRuntime.Configuration()
            try! api.registerHandlers(on: router.group().add(middleware: sessions).add(middleware: OpenAPIBridge()), configuration: configuration)
        }
        TransferController(transfers: services.transfers, accounts: services.accounts, throttle: services.throttle).addRoutes(to: router.group("transfers").add(middleware: sessions))
        PaymentWebhookController(
            marketplace: services.marketplace, signature: services.webhookSignature, stripeSignature: services.stripeWebhookSignature, clock: services.clock
        ).addRoutes(to: router.group("webhooks"))
        MarketplaceController(marketplace: services.marketplace).addRoutes(to: router.group().add(middleware: sessions))
        // The payer's browser, not a signed-in client: no session.
        if let simulator = services.paymentProvider as? SimulatedPaymentProvider {
            SimulatedProviderController(simulator: simulator).addRoutes(to: router.group("sim/pay"))
        }
        routes.load(router.routes)
        return router
    }
}
