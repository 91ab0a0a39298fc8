import ArgumentParser
import CountersignCore
import CountersignServer
import Foundation
import Hummingbird
import Logging

/// `countersign serve`: runs the HTTP server until SIGINT/SIGTERM, draining requests on the way out.
/// Its settings are the table `ServeSettings.all`, read from flags, environment and `--config` by
/// `ServeSettings.resolve`; `--help` is written from the same table.
struct Serve: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(abstract: "Run the Countersign server.", discussion: ServeSettings.help)
    }

    /// Every argument after `serve`, read against the table (ArgumentParser answers `--help` only).
    @Argument(parsing: .allUnrecognized, help: .hidden) var arguments: [String] = []

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings: ServeConfiguration
        do {
            settings = try ServeSettings.resolve(arguments: arguments, environment: environment)
        } catch {
            throw ValidationError(error.description)
        }
        var configuration = settings.server
        let json = settings.logFormat == "json" || (settings.logFormat == "auto" && isatty(STDERR_FILENO) == 0)
        LoggingSystem.bootstrap(
            { label, metadataProvider -> any LogHandler in
                json
                    ? JSONLogHandler(label: label, metadataProvider: metadataProvider)
                    : StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
            }, metadataProvider: RequestTrace.metadataProvider)
        let traces = try TraceExport.start(endpoint: settings.otlpEndpoint, environment: environment)
        configuration.exportedTraceId = traces?.traceId
        var logger = Logger(label: "countersign")
        logger.logLevel = settings.logLevel
        let database = try await CountersignApp.openDatabase(configuration, logger: logger)
        // So that an operator command pointed at another store can say which one this server uses.
        let record = ServerRegistry.register(store: StorePlace(configuration), url: configuration.publicBaseURL)
        defer { if let record { try? FileManager.default.removeItem(atPath: record) } }
        let app = try await CountersignApp.build(
            configuration: configuration, database: database, logger: logger,
            exporters: traces.map { [$0.service] } ?? [])
        logger.info(
            "starting",
            metadata: [
                "address": "\(configuration.host):\(configuration.port)", "store": "\(database.engine)",
                "rpId": "\(configuration.rpId)", "origins": "\(configuration.relyingParty.origins.sorted())",
                "payments": "\(configuration.stripe.map(String.init(describing:)) ?? "simulator")",
                "sms": "\(configuration.twilio.map(String.init(describing:)) ?? "simulator")",
                "traces": "\(traces == nil ? "off" : "OTLP")",
                "metrics": "\(configuration.metricsAddress.map { "\($0.host):\($0.port)" } ?? "off")",
            ])
        if configuration.stripe == nil {
            logger.warning(
                "TEST MODE: payments go to the built-in simulator, whose hosted page lets any payer mark their own order paid. Never take real orders like this: configure Stripe, and --require-live-payments"
            )
        }
        if configuration.twilio == nil {
            logger.warning(
                "TEST MODE: text messages go to the built-in SMS simulator, which sends nothing and shows every one-time code at GET /sim/sms. Never let real users sign up like this: configure Twilio, and --require-live-sms"
            )
        }
        if let stripe = configuration.stripe, stripe.webhookSecret == nil {
            logger.warning(
                "no STRIPE_WEBHOOK_SECRET: Stripe's webhooks will be refused; orders settle by polling and the sweeper")
        }
        try await app.runService()
    }
}
