import CountersignStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import WebAuthn

/// Builds the Countersign application: store, services, routes and middleware.
package enum CountersignApp {
    /// Opens the store the configuration names: PostgreSQL for a URL, else SQLite in the data directory.
    /// A `serving` store keeps its PostgreSQL connections open; an operator command's opens them on demand.
    package static func openDatabase(_ configuration: ServerConfiguration, serving: Bool = true, logger: Logger)
        async throws -> any Database
    {
        if let url = configuration.databaseURL {
            return try PostgresDatabase(url: url, keepingConnections: serving, logger: logger)
        }
        let path = try DataDirectory.prepareDatabaseFile(in: configuration.dataDirectory)
        return try await SQLiteDatabase.open(path: path, logger: logger)
    }

    /// The services the HTTP layer and the operator commands share.
    package static func makeServices(
        configuration: ServerConfiguration, database: any Database, clock: WallClock = .system,
        supplier: any AirtimeSupplier = SimulatedAirtimeSupplier(), smsSender: (any SMSSender)? = nil, logger: Logger
    ) async throws -> AppServices {
        let traced = configuration.exportedTraceId != nil
        let metrics = ServerMetrics()
        let database = MeteredDatabase(base: traced ? TracedDatabase(base: database) : database, metrics: metrics)
        let supplier: any AirtimeSupplier = traced ? TracedAirtimeSupplier(base: supplier) : supplier
        let pepper = try SecretStore.secret(
            named: "pin-pepper", configured: configuration.pinPepper, dataDirectory: configuration.dataDirectory)
        let tokenSecret = try SecretStore.secret(
            named: "token-hmac", configured: configuration.tokenSecret, dataDirectory: configuration.dataDirectory)
        let webhookSecret = try SecretStore.secret(
            named: "payment-webhook", configured: configuration.paymentWebhookSecret,
            dataDirectory: configuration.dataDirectory)
        let returnURLs = try ReturnURLPolicy(
            allowing: configuration.returnOrigins.isEmpty ? [configuration.publicBaseURL] : configuration.returnOrigins)
        let webFiles: WebFiles? =
            switch configuration.web {
            case .bundled: try WebFiles.bundled()
            case .directory(let path): try WebFiles.directory(path)
            case .off: nil
            }
        return await AppServices(
            configuration: configuration, database: database, clock: clock, supplier: supplier, pepper: pepper,
            tokenSecret: tokenSecret,
            webhookSecret: webhookSecret, returnURLs: returnURLs, webFiles: webFiles, metrics: metrics,
            smsSender: smsSender, logger: logger
        )
    }

    /// The HTTP application. Migrations run before the server accepts traffic. `outermost`, when
    /// given, wraps every other middleware and so sees every response (the tests check each one
    /// against openapi.yaml with it). `exporters` (the trace exporter) are started first and stopped
    /// last, so they still take what the server and workers do while they drain.
    package static func build(
        configuration: ServerConfiguration, database: any Database, clock: WallClock = .system,
        supplier: any AirtimeSupplier = SimulatedAirtimeSupplier(), logger: Logger,
        outermost: (any MiddlewareProtocol<Request, Response, AppRequestContext>)? = nil,
        exporters: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let services = try await makeServices(
            configuration: configuration, database: database, clock: clock, supplier: supplier, logger: logger)
        return build(
            services: services, logger: logger, outermost: outermost, exporters: exporters,
            onServerRunning: onServerRunning)
    }

    /// The HTTP application over services already made (the tests keep them, to look inside).
    package static func build(
        services: AppServices, logger: Logger,
        outermost: (any MiddlewareProtocol<Request, Response, AppRequestContext>)? = nil,
        exporters: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let configuration = services.configuration
        let metricsListener = configuration.metricsAddress.map {
            MetricsEndpoint.application(services.metrics, at: $0, logger: logger)
        }
        var app = Application(
            router: makeRouter(services, outermost: outermost),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "countersign"),
            services: exporters + [
                // Its run() is the engine's: the metered (and traced) store only forwards it.
                services.database,
                services.workers.tracking(services.instanceLease, as: "instanceLease"),
                services.workers.tracking(services.pendingTopUpSweeper, as: "pendingTopUpSweeper"),
                services.workers.tracking(services.transferProcessor, as: "transferProcessor"),
                services.workers.tracking(services.transferChangeListener, as: "transferChangeListener"),
                services.workers.tracking(services.pendingOrderSweeper, as: "pendingOrderSweeper"),
                services.workers.tracking(services.smsDispatcher, as: "smsDispatcher"),
                services.workers.tracking(services.storePurger, as: "storePurger"),
                services.workers.tracking(services.webhookWorker, as: "webhookWorker"),
            ] + (metricsListener.map { [$0] } ?? []),
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

    /// Every route, behind the error and session middleware, and behind `outermost` when given.
    package static func makeRouter(
        _ services: AppServices, outermost: (any MiddlewareProtocol<Request, Response, AppRequestContext>)? = nil
    ) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        let routes = RouteMethods()
        if let outermost { router.add(middleware: outermost) }
        if services.configuration.exportedTraceId != nil { router.add(middleware: RequestSpanMiddleware()) }
        router.add(
            middleware: RequestRecordMiddleware(
                exportedTraceId: services.configuration.exportedTraceId, metrics: services.metrics))
        let origins = BrowserOrigins(configuration: services.configuration)
        let cookie = SessionCookie(configuration: services.configuration)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: BrowserPolicyMiddleware(origins: origins))
        router.add(middleware: ErrorMiddleware(routes: routes))
        if let files = services.webFiles { router.add(middleware: WebFilesMiddleware(files: files)) }
        router.add(middleware: QueryTextMiddleware())
        let sessions = SessionMiddleware(accounts: services.accounts, cookie: cookie, origins: origins)
        SystemController(
            database: services.database, paymentsInTestMode: services.configuration.paymentsInTestMode,
            smsInTestMode: services.simulatedSMS != nil,
            workers: services.workers
        )
        .addRoutes(to: router)
        AuthController(
            accounts: services.accounts, biometric: services.biometric, verifications: services.verifications,
            throttle: services.throttle, phoneRegion: services.configuration.phoneRegion, cookie: cookie,
            deviceCookie: DeviceCookie(configuration: services.configuration)
        ).addRoutes(to: router.group(), sessions: sessions)
        AccountController(
            accounts: services.accounts, biometric: services.biometric, database: services.database,
            configuration: services.configuration
        ).addRoutes(to: router.group().add(middleware: sessions))
        BiometricController(biometric: services.biometric, throttle: services.throttle).addRoutes(
            to: router.group().add(middleware: sessions))
        WalletController(
            throttle: services.throttle,
            topUps: services.topUps, wallets: services.wallets
        ).addRoutes(to: router.group().add(middleware: sessions))
        TransferController(
            transfers: services.transfers, accounts: services.accounts, database: services.database,
            feed: services.transfers.feed, configuration: services.configuration, throttle: services.throttle,
            metrics: services.metrics
        )
        .addRoutes(to: router.group().add(middleware: sessions))
        FundingController(fundings: services.fundings).addRoutes(to: router.group().add(middleware: sessions))
        PaymentWebhookController(
            marketplace: services.marketplace, fundings: services.fundings, signature: services.webhookSignature,
            stripeSignature: services.stripeWebhookSignature, clock: services.clock
        ).addRoutes(to: router.group())
        MarketplaceController(marketplace: services.marketplace, throttle: services.throttle).addRoutes(
            to: router.group().add(middleware: sessions))
        LimitsController(limits: services.limits, throttle: services.throttle)
            .addRoutes(to: router.group().add(middleware: sessions))
        OperatorController(
            operators: services.operators, console: services.operatorConsole, marketplace: services.marketplace,
            throttle: services.throttle,
            metrics: services.metrics, currency: services.configuration.currency
        ).addRoutes(to: router.group().add(middleware: sessions))
        WebhookController(
            operators: services.operators, console: services.operatorConsole, webhooks: services.webhooks,
            throttle: services.throttle
        ).addRoutes(to: router.group().add(middleware: sessions))
        // The payer's browser, not a signed-in client: no session.
        if let simulator = services.simulatedPaymentProvider {
            SimulatedProviderController(simulator: simulator, marketplace: services.marketplace).addRoutes(
                to: router.group())
        }
        // What a phone would have received, while the SMS provider is the simulator (test mode).
        if let simulator = services.simulatedSMS {
            SimulatedSMSController(simulator: simulator, phoneRegion: services.configuration.phoneRegion).addRoutes(
                to: router.group())
        }
        routes.load(router.routes)
        return router
    }
}
