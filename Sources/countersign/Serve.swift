import ArgumentParser
import CountersignCore
import CountersignServer
import Foundation
import Hummingbird
import Logging

/// `countersign serve`: runs the HTTP server until SIGINT/SIGTERM, draining requests on the way out.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Countersign server.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Address to listen on (env COUNTERSIGN_HOST).")
    var host: String?

    @Option(help: "Port to listen on (env PORT; default 8080).")
    var port: Int?

    @Option(name: .customLong("rp-id"), help: "WebAuthn relying party id (env COUNTERSIGN_RP_ID; default localhost).")
    var rpId: String?

    @Option(name: .customLong("rp-name"), help: "WebAuthn relying party name (env COUNTERSIGN_RP_NAME).")
    var rpName: String?

    @Option(
        name: .customLong("origin"),
        help:
            "An allowed origin, repeatable: https://app.example or android:apk-key-hash:… (env COUNTERSIGN_ORIGINS, comma-separated; default http://localhost:<port>)."
    )
    var origins: [String] = []

    @Option(
        name: .customLong("public-base-url"),
        help:
            "Where payers' browsers reach this server, for the payment simulator's hosted page (env COUNTERSIGN_PUBLIC_BASE_URL; default http://localhost:<port>)."
    )
    var publicBaseURL: String?

    @Option(
        name: .customLong("payee-origin"),
        help:
            "The https origin Secure Payment Confirmation shows as the payee (env COUNTERSIGN_PAYEE_ORIGIN; default the public base URL's origin when https, else none)."
    )
    var payeeOrigin: String?

    @Option(
        name: .customLong("return-origin"),
        help:
            "Where a payment provider's page may send the payer back, repeatable: an origin (https://shop.example) or an app scheme (myapp:) (env COUNTERSIGN_RETURN_ORIGINS, comma-separated; default the public base URL)."
    )
    var returnOrigins: [String] = []

    @Option(
        name: .customLong("cors-origin"),
        help:
            "Another web origin whose pages may call the API from a browser, repeatable: https://shop.example (env COUNTERSIGN_CORS_ORIGINS, comma-separated; none by default)."
    )
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("web-root"),
        help: "Serve the web app from this directory instead of the bundled copy (edits show on reload).")
    var webRoot: String?

    @Flag(name: .customLong("no-web"), help: "Serve the API only: no web app at /.")
    var noWeb = false

    @Flag(name: .customLong("allow-cross-origin"), help: "Accept cross-origin (iframe) WebAuthn ceremonies.")
    var allowCrossOrigin = false

    @Flag(
        name: .customLong("allow-private-webhook-targets"),
        help:
            "Let webhooks go to loopback and private addresses, and over http: for tests and receivers on this network only."
    )
    var allowPrivateWebhookTargets = false

    // Tests: the first webhook retry's delay in milliseconds (default 5000), and the worker's pause.
    @Option(name: .customLong("webhook-retry-base-ms"), help: .hidden) var webhookRetryBaseMillis: Int64?
    @Option(name: .customLong("webhook-poll-ms"), help: .hidden) var webhookPollMillis: Int64?

    @Flag(
        name: .customLong("accept-unverified-attestation"),
        help:
            "Accept registrations whose attestation format cannot be verified here (android-safetynet, compound), stored as unverified. Refused by default."
    )
    var acceptUnverifiedAttestation = false

    // The former opt-out, now the default; kept so existing command lines still start.
    @Flag(name: .customLong("verified-attestation-only"), help: .hidden)
    var verifiedAttestationOnly = false

    @OptionGroup var passkeys: PasskeyPolicyOptions

    @Option(name: .customLong("user-verification"), help: "required (default) or preferred.")
    var userVerification: String?

    @Option(
        name: .customLong("fee-schedule"),
        help: "A JSON file of transfer fees per currency (env COUNTERSIGN_FEE_SCHEDULE; see docs/api.md).")
    var feeSchedule: String?

    @Option(
        name: .customLong("marketplace-rates"),
        help:
            "A JSON file of marketplace shipping and payment-method prices (env COUNTERSIGN_MARKETPLACE_RATES; see docs/api.md)."
    )
    var marketplaceRates: String?

    @Option(
        name: .customLong("quote-seconds"), help: "How long a transfer quote waits for authorization (default 300).")
    var quoteSeconds: Int64?

    @Option(
        name: .customLong("bid-hours"),
        help: "How long a bid waits for the seller to accept it before it expires (default 168: 7 days).")
    var bidHours: Int64?

    @Option(
        name: .customLong("accepted-bid-hours"),
        help: "How long an accepted bid waits for its payment before it expires and frees the product (default 48).")
    var acceptedBidHours: Int64?

    @Option(
        name: .customLong("buy-now-minutes"),
        help: "How long a buy-now waits for its payment before it expires and frees the product (default 30).")
    var buyNowMinutes: Int64?

    @Option(
        name: .customLong("rate-limit"),
        help:
            "Change one rate limit, repeatable: NAME=COUNT/SECONDS, NAME one of \(RateLimits.Bucket.allCases.map(\.rawValue).joined(separator: ", ")) (see docs/operations.md for the defaults)."
    )
    var rateLimits: [String] = []

    @Flag(
        name: .customLong("no-rate-limits"),
        help: "Turn the rate limits off (a benchmark from one address; never in production).")
    var noRateLimits = false

    @Flag(
        name: .customLong("no-pin-allowance"),
        help:
            "Let the PIN alone pay any amount any number of times (load and crash tests that pay by PIN; never in production)."
    )
    var noPinAllowance = false

    @Option(
        name: .customLong("trusted-proxy"),
        help:
            "A proxy whose X-Forwarded-For names the client, repeatable: its address as the server sees it (env COUNTERSIGN_TRUSTED_PROXIES, comma-separated). Nobody else's X-Forwarded-For is read."
    )
    var trustedProxies: [String] = []

    @Option(name: .customLong("session-days"), help: "The longest a session lives, in days (default 30).")
    var sessionDays: Int64?

    @Option(
        name: .customLong("session-idle-minutes"),
        help: "A session unused this long ends, in minutes (default 720: 12 hours).")
    var sessionIdleMinutes: Int64?

    @Option(
        name: .customLong("stream-fallback-seconds"),
        help: "How often an event stream re-reads the store without a change signal (default 5).")
    var streamFallbackSeconds: Int64?

    @Option(
        name: .customLong("stripe-secret-key-file"),
        help:
            "A 0600 file holding the Stripe secret key (sk_test_… or sk_live_…); with it, or env STRIPE_SECRET_KEY, payments go to Stripe instead of the simulator."
    )
    var stripeSecretKeyFile: String?

    @Option(
        name: .customLong("stripe-webhook-secret-file"),
        help: "A 0600 file holding the Stripe webhook signing secret (whsec_…; env STRIPE_WEBHOOK_SECRET).")
    var stripeWebhookSecretFile: String?

    @Option(
        name: .customLong("stripe-api-base-url"),
        help: "Stripe's API address (env STRIPE_API_BASE_URL; default https://api.stripe.com).")
    var stripeAPIBaseURL: String?

    @Flag(
        name: .customLong("require-live-payments"),
        help:
            "Refuse to start unless payments go to Stripe with a live key: never the simulator (env COUNTERSIGN_REQUIRE_LIVE_PAYMENTS=1)."
    )
    var requireLivePayments = false

    @Flag(
        name: .customLong("require-live-sms"),
        help:
            "Refuse to start unless text messages go to Twilio: never the SMS simulator (env COUNTERSIGN_REQUIRE_LIVE_SMS=1)."
    )
    var requireLiveSMS = false

    @Option(
        name: .customLong("new-device-hours"),
        help:
            "How long a device signed in to with the PIN and a code, or a key bound that way, stays new: it pays at most --new-device-max-amount at once, and no other key can be bound with the PIN and a code meanwhile (default 24)."
    )
    var newDeviceHours: Int?

    @Option(
        name: .customLong("new-device-max-amount"),
        help: "The most a new device or key may pay at once, in minor units of the wallet currency (default 500000).")
    var newDeviceMaxAmount: Int64?

    @Option(
        name: .customLong("pin-max-amount"),
        help:
            "The most the PIN alone may pay at once, per currency, repeatable: 30EUR, 50000NGN (defaults 30EUR, 50000NGN); beyond it the passkey is needed."
    )
    var pinMaxAmounts: [String] = []

    @Option(
        name: .customLong("pin-cumulative-amount"),
        help:
            "The most the PIN alone may pay in all between two passkey payments, per currency, repeatable: 100EUR, 150000NGN (the defaults); at most 5 payments either way."
    )
    var pinCumulativeAmounts: [String] = []

    @Option(
        name: .customLong("limit-tier"),
        help:
            "A spending limits tier, repeatable: NAME:KIND=AMOUNT,… with KIND per_payment, daily, rolling_30_days or max_balance, e.g. tier1:daily=50000NGN,max_balance=300000NGN (replaces a tier of that name; built in: standard, tier1)."
    )
    var limitTierEntries: [String] = []

    @Option(
        name: .customLong("default-limit-tier"), help: "The tier of users an operator assigned none (default standard)."
    )
    var defaultLimitTier: String?

    @Option(
        name: .customLong("limit-raise-delay"),
        help: "Hours before a limit a user raised applies (default 24; lowering applies at once).")
    var limitRaiseDelay: Int?

    @Option(name: .customLong("log-level"), help: "trace, debug, info (default), notice, warning, error.")
    var logLevel: String?

    @Option(
        name: .customLong("log-format"),
        help:
            "json (one JSON object per line), text, or auto (default): json unless standard error is a terminal (env COUNTERSIGN_LOG_FORMAT)."
    )
    var logFormat: String?

    @Option(
        name: .customLong("otlp-endpoint"),
        help:
            "Export traces over OTLP/HTTP to this collector, e.g. http://127.0.0.1:4318 (off by default; the OTEL_EXPORTER_OTLP_* environment also turns it on)."
    )
    var otlpEndpoint: String?

    @Option(
        name: .customLong("metrics-address"),
        help:
            "Serve /metrics (Prometheus) on this HOST:PORT, a listener of its own with no authentication: keep it on loopback or a private network (env COUNTERSIGN_METRICS_ADDRESS; default: off)."
    )
    var metricsAddress: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = store.configuration()
        if let host = host ?? environment["COUNTERSIGN_HOST"] { configuration.host = host }
        if let port = port ?? environment["PORT"].flatMap(Int.init) { configuration.port = port }
        if let rpId = rpId ?? environment["COUNTERSIGN_RP_ID"] { configuration.rpId = rpId }
        if let rpName = rpName ?? environment["COUNTERSIGN_RP_NAME"] { configuration.rpName = rpName }
        configuration.origins =
            origins.isEmpty
            ? (environment["COUNTERSIGN_ORIGINS"]?.split(separator: ",").map(String.init) ?? []) : origins
        if let url = publicBaseURL ?? environment["COUNTERSIGN_PUBLIC_BASE_URL"] { configuration.publicBaseURL = url }
        if let origin = payeeOrigin ?? environment["COUNTERSIGN_PAYEE_ORIGIN"] {
            guard let https = PaymentConfirmation.payeeOrigin(origin) else {
                throw ValidationError(
                    "--payee-origin must be an https origin (https://host[:port]): Secure Payment Confirmation refuses any other"
                )
            }
            configuration.payeeOrigin = https
        }
        configuration.returnOrigins =
            returnOrigins.isEmpty
            ? (environment["COUNTERSIGN_RETURN_ORIGINS"]?.split(separator: ",").map(String.init) ?? []) : returnOrigins
        do {
            _ = try ReturnURLPolicy(allowing: configuration.returnOrigins)
        } catch {
            throw ValidationError("--return-origin: \(error)")
        }
        configuration.corsOrigins =
            corsOrigins.isEmpty
            ? (environment["COUNTERSIGN_CORS_ORIGINS"]?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            } ?? [])
            : corsOrigins
        if let bad = configuration.corsOrigins.first(where: { !BrowserOrigins.isOrigin($0) }) {
            throw ValidationError(
                "--cors-origin \(bad): give an origin only, like https://shop.example (no path, no trailing slash)")
        }
        switch (webRoot, noWeb) {
        case (.some, true): throw ValidationError("--web-root contradicts --no-web")
        case (.some(let path), false): configuration.web = .directory(path)
        case (nil, true): configuration.web = .off
        case (nil, false): configuration.web = .bundled
        }
        configuration.allowCrossOrigin = allowCrossOrigin
        configuration.allowPrivateWebhookTargets = allowPrivateWebhookTargets
        if let base = try Self.bounded(webhookRetryBaseMillis, "--webhook-retry-base-ms", 1...86_400_000) {
            configuration.webhookRetry.baseMillis = base
        }
        if let poll = try Self.bounded(webhookPollMillis, "--webhook-poll-ms", 10...3_600_000) {
            configuration.webhookPollMillis = poll
        }
        guard !(acceptUnverifiedAttestation && verifiedAttestationOnly) else {
            throw ValidationError("--accept-unverified-attestation contradicts --verified-attestation-only")
        }
        configuration.acceptUnverifiedAttestation = acceptUnverifiedAttestation
        configuration.passkeyPolicy = try passkeys.policy()
        if let userVerification {
            guard ["required", "preferred"].contains(userVerification) else {
                throw ValidationError("--user-verification must be required or preferred")
            }
            configuration.userVerification = userVerification
        }
        if let path = feeSchedule ?? environment["COUNTERSIGN_FEE_SCHEDULE"] {
            configuration.feeSchedule = try Self.loadFeeSchedule(path)
        }
        if let path = marketplaceRates ?? environment["COUNTERSIGN_MARKETPLACE_RATES"] {
            configuration.marketplaceRates = try Self.loadMarketplaceRates(path)
        }
        if let quoteSeconds = try Self.bounded(quoteSeconds, "--quote-seconds", 30...3_600) {
            configuration.quoteSeconds = quoteSeconds
        }
        for setting in rateLimits {
            do {
                try configuration.rateLimits.apply(setting)
            } catch {
                throw ValidationError("--rate-limit \(error)")
            }
        }
        if noRateLimits { configuration.rateLimits.enabled = false }
        configuration.trustedProxies =
            trustedProxies.isEmpty
            ? (environment["COUNTERSIGN_TRUSTED_PROXIES"]?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            } ?? [])
            : trustedProxies
        if let days = try Self.bounded(sessionDays, "--session-days", 1...365) {
            configuration.sessionSeconds = days * 86_400
        }
        if let minutes = try Self.bounded(sessionIdleMinutes, "--session-idle-minutes", 5...43_200, "30 days") {
            configuration.sessionIdleSeconds = minutes * 60
        }
        if let seconds = try Self.bounded(streamFallbackSeconds, "--stream-fallback-seconds", 1...3_600) {
            configuration.streamFallbackSeconds = seconds
        }
        do {
            configuration.stripe = try StripeConfiguration.load(
                secretKey: environment["STRIPE_SECRET_KEY"], secretKeyFile: stripeSecretKeyFile,
                webhookSecret: environment["STRIPE_WEBHOOK_SECRET"], webhookSecretFile: stripeWebhookSecretFile,
                baseURL: stripeAPIBaseURL ?? environment["STRIPE_API_BASE_URL"]
            )
        } catch {
            throw ValidationError("\(error)")
        }
        if configuration.paymentsInTestMode,
            requireLivePayments || environment["COUNTERSIGN_REQUIRE_LIVE_PAYMENTS"] == "1"
        {
            throw ValidationError(
                "--require-live-payments: payments would go to \(configuration.stripe.map(String.init(describing:)) ?? "the payment simulator"); configure a live Stripe key (STRIPE_SECRET_KEY=sk_live_…)"
            )
        }
        do {
            configuration.twilio = try TwilioConfiguration.fromEnvironment(environment)
        } catch {
            throw ValidationError("\(error)")
        }
        if !configuration.smsIsLive, requireLiveSMS || environment["COUNTERSIGN_REQUIRE_LIVE_SMS"] == "1" {
            throw ValidationError(
                "--require-live-sms: text messages would go to \(configuration.twilio.map(String.init(describing:)) ?? "the SMS simulator, whose codes anyone can read at /sim/sms"); set TWILIO_ACCOUNT_SID, TWILIO_API_KEY_SID, TWILIO_API_KEY_SECRET and TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID)"
            )
        }
        if let hours = try Self.bounded(newDeviceHours, "--new-device-hours", 0...720, "30 days") {
            configuration.newDeviceSeconds = Int64(hours) * 3600
        }
        if let amount = try Self.bounded(
            newDeviceMaxAmount, "--new-device-max-amount", 0...1_000_000_000_000, "minor units")
        {
            configuration.newDeviceMaxAmount = amount
        }
        configuration.pinAllowance = noPinAllowance ? .unlimited : try pinAllowance()
        configuration.limitTiers = try limitTiers()
        configuration.marketplaceTimeouts = try marketplaceTimeouts()
        let format = logFormat ?? environment["COUNTERSIGN_LOG_FORMAT"] ?? "auto"
        guard ["auto", "json", "text"].contains(format) else {
            throw ValidationError("--log-format must be auto, json or text")
        }
        let json = format == "json" || (format == "auto" && isatty(STDERR_FILENO) == 0)
        LoggingSystem.bootstrap(
            { label, metadataProvider -> any LogHandler in
                json
                    ? JSONLogHandler(label: label, metadataProvider: metadataProvider)
                    : StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
            }, metadataProvider: RequestTrace.metadataProvider)
        if let address = metricsAddress ?? environment["COUNTERSIGN_METRICS_ADDRESS"] {
            configuration.metricsAddress = try Self.hostAndPort(address, flag: "--metrics-address")
            guard configuration.metricsAddress?.port != configuration.port else {
                throw ValidationError("--metrics-address must not use the API's port \(configuration.port)")
            }
        }
        let traces = try TraceExport.start(endpoint: otlpEndpoint, environment: environment)
        configuration.exportedTraceId = traces?.traceId
        var logger = Logger(label: "countersign")
        logger.logLevel = (logLevel ?? environment["LOG_LEVEL"]).flatMap(Logger.Level.init(rawValue:)) ?? .info
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

    /// `HOST:PORT` (an IPv6 host in brackets), the port 1 to 65535.
    static func hostAndPort(_ text: String, flag: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            throw ValidationError("\(flag) must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:9464")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 255 else {
            throw ValidationError("\(flag) needs a host, e.g. 127.0.0.1:9464")
        }
        return (host, port)
    }

    /// The bid lifetimes from the flags, each checked against a sensible range.
    func marketplaceTimeouts() throws -> MarketplaceTimeouts {
        var timeouts = MarketplaceTimeouts()
        if let hours = try Self.bounded(bidHours, "--bid-hours", 1...2_160, "90 days") {
            timeouts.bidSeconds = hours * 3_600
        }
        if let hours = try Self.bounded(acceptedBidHours, "--accepted-bid-hours", 1...720, "30 days") {
            timeouts.acceptedSeconds = hours * 3_600
        }
        if let minutes = try Self.bounded(buyNowMinutes, "--buy-now-minutes", 5...1_440, "a day") {
            timeouts.buyNowSeconds = minutes * 60
        }
        return timeouts
    }

    /// Reads and checks a fee schedule file, naming what is wrong.
    static func loadFeeSchedule(_ path: String) throws -> FeeSchedule {
        let schedule = try load(FeeSchedule.self, what: "fee schedule", path)
        if let problem = schedule.problem { throw ValidationError("the fee schedule \(path): \(problem)") }
        return schedule
    }

    /// Reads and checks a marketplace rates file, naming what is wrong.
    static func loadMarketplaceRates(_ path: String) throws -> MarketplaceRates {
        let rates = try load(MarketplaceRates.self, what: "marketplace rates", path)
        if let problem = rates.problem { throw ValidationError("the marketplace rates \(path): \(problem)") }
        return rates
    }

    private static func load<T: Decodable>(_ type: T.Type, what: String, _ path: String) throws -> T {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the \(what) \(path)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ValidationError("the \(what) \(path) is not valid: \(error)")
        }
    }
}
