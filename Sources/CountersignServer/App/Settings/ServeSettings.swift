import CountersignCore
import Foundation
import Logging

/// Every setting of `countersign serve`, once: flag, environment variable, file key, kind, range and
/// unit, default, help, and what it changes. A new setting is one entry here and its line in
/// docs/operations.md (`ServeSettingsTests` checks both). Entries apply in this order, so one that
/// reads another (`--default-limit-tier` reads the tiers) comes after it; settings that only make
/// sense together are checked in `finish`.
package enum ServeSettings {
    /// The settings every command that opens the store shares (`StoreOptions`).
    package static let store: [Setting] = [
        .text(
            "data-dir", value: "dir", default: "./.countersign",
            help: "Data directory: the SQLite file and generated secrets."
        ) { $0.server.dataDirectory = $1 },
        .text(
            "database-url", environment: "DATABASE_URL", value: "url", default: "none: embedded SQLite",
            help: "postgres://user:password@host:port/database; overrides SQLite."
        ) { if !$1.isEmpty { $0.server.databaseURL = $1 } },
        .text(
            "phone-region", value: PhoneRegion.known.map(\.code).joined(separator: "|"), default: "NG",
            help: "How numbers without a country code are read."
        ) { configuration, code in
            guard let region = PhoneRegion(code: code) else {
                throw SettingProblem("must be one of \(PhoneRegion.known.map(\.code).joined(separator: ", "))")
            }
            configuration.server.phoneRegion = region
        },
        .list(
            "wallet-currency", environment: "COUNTERSIGN_WALLET_CURRENCIES", value: "code", default: "NGN and EUR",
            help: "A wallet currency every user holds; repeat for more, the first is the primary."
        ) { configuration, codes in
            let codes = codes.map { $0.uppercased() }
            if let unknown = codes.first(where: { Currency.known[$0] == nil }) {
                throw SettingProblem(
                    "\(unknown) is not a currency this server knows: use \(Currency.known.keys.sorted().joined(separator: " or "))."
                )
            }
            configuration.server.walletCurrencies = codes
        },
        .secret(
            "token-secret", environment: "COUNTERSIGN_TOKEN_SECRET",
            help: "The verification-token key, 32 bytes or more; else generated into <data-dir>/secrets/."
        ) { $0.server.tokenSecret = Array($1.utf8) },
        .secret(
            "pin-pepper", environment: "COUNTERSIGN_PIN_PEPPER",
            help: "The PIN pepper, 32 bytes or more; else generated into <data-dir>/secrets/."
        ) { $0.server.pinPepper = Array($1.utf8) },
        .secret(
            "payment-webhook-secret", environment: "COUNTERSIGN_PAYMENT_WEBHOOK_SECRET",
            help: "The payment simulator's webhook secret, 32 bytes or more; else <data-dir>/secrets/payment-webhook."
        ) { $0.server.paymentWebhookSecret = Array($1.utf8) },
    ]

    /// Where and as whom the server answers.
    static let listener: [Setting] = [
        .text("host", value: "address", default: "127.0.0.1", help: "Address to listen on.") { $0.server.host = $1 },
        .integer(
            "port", 0...65_535, .number, environment: "PORT", value: "port", default: "8080",
            help: "Port to listen on (0: any free port)."
        ) { $0.server.port = Int($1.value) },
        .text("rp-id", value: "domain", default: "localhost", help: "WebAuthn relying party id.") {
            $0.server.rpId = $1
        },
        .text("rp-name", value: "name", default: "Countersign", help: "WebAuthn relying party name.") {
            $0.server.rpName = $1
        },
        .list(
            "origin", environment: "COUNTERSIGN_ORIGINS", value: "origin", default: "http://localhost:<port>",
            help: "An allowed origin: https://app.example or android:apk-key-hash:…"
        ) { $0.server.origins = $1 },
        .text(
            "public-base-url", value: "url", default: "http://localhost:<port>",
            help: "Where payers' browsers reach this server, for the payment simulator's hosted page."
        ) { $0.server.publicBaseURL = $1 },
        .text(
            "payee-origin", value: "origin", default: "the public base URL's origin when https, else none",
            help: "The https origin Secure Payment Confirmation shows as the payee."
        ) { configuration, origin in
            guard let https = PaymentConfirmation.payeeOrigin(origin) else {
                throw SettingProblem(
                    "must be an https origin (https://host[:port]): Secure Payment Confirmation refuses any other")
            }
            configuration.server.payeeOrigin = https
        },
        .list(
            "return-origin", environment: "COUNTERSIGN_RETURN_ORIGINS", value: "origin",
            default: "the public base URL",
            help:
                "Where a payment provider's page may send the payer back: an origin (https://shop.example) or an app scheme (myapp:)."
        ) { configuration, origins in
            do {
                _ = try ReturnURLPolicy(allowing: origins)
            } catch {
                throw SettingProblem("\(error)")
            }
            configuration.server.returnOrigins = origins
        },
        .list(
            "cors-origin", environment: "COUNTERSIGN_CORS_ORIGINS", value: "origin", default: "none",
            help: "Another web origin whose pages may call the API from a browser: https://shop.example."
        ) { configuration, origins in
            if let bad = origins.first(where: { !BrowserOrigins.isOrigin($0) }) {
                throw SettingProblem(
                    "\(bad): give an origin only, like https://shop.example (no path, no trailing slash)")
            }
            configuration.server.corsOrigins = origins
        },
        .list(
            "trusted-proxy", environment: "COUNTERSIGN_TRUSTED_PROXIES", value: "address", default: "none",
            help:
                "A proxy whose X-Forwarded-For names the client: its address as the server sees it. Nobody else's X-Forwarded-For is read."
        ) { $0.server.trustedProxies = $1 },
        .text(
            "web-root", value: "dir",
            help: "Serve the web app from this directory instead of the bundled copy (edits show on reload)."
        ) { $0.webRoot = $1 },
        .flag("no-web", help: "Serve the API only: no web app at /.") { $0.noWeb = true },
    ]

    /// What a passkey must prove.
    static let passkeys: [Setting] = [
        .flag("allow-cross-origin", help: "Accept cross-origin (iframe) WebAuthn ceremonies.") {
            $0.server.allowCrossOrigin = true
        },
        .flag(
            "accept-unverified-attestation",
            help:
                "Accept registrations whose attestation format cannot be verified here (android-safetynet, compound), stored as unverified. Refused by default."
        ) { $0.server.acceptUnverifiedAttestation = true },
        // The former opt-out, now the default; kept so existing command lines still start.
        .flag("verified-attestation-only", hidden: true, help: "The default.") { $0.verifiedAttestationOnly = true },
        .choice(
            "user-verification", ["required", "preferred"], default: "required",
            help: "Whether a payment needs the biometric (or the device PIN)."
        ) { $0.server.userVerification = $1 },
        .choice(
            "synced-passkeys", PasskeyPolicy.SyncedPasskeys.allCases.map(\.rawValue), default: "allow",
            help:
                "allow: synced passkeys register and pay, their backup flags recorded. deny: a backup-eligible key is refused at registration and a key whose backup-state flag is set cannot authorize a payment."
        ) { $0.server.passkeyPolicy.syncedPasskeys = PasskeyPolicy.SyncedPasskeys(rawValue: $1) ?? .allow },
        .list(
            "authenticator-allow", value: "aaguid", default: "every model",
            help:
                "An authenticator model (AAGUID, UUID text) that may register. When given, only listed models whose attestation chains to their FIDO metadata roots (countersign mds import) register."
        ) { $0.server.passkeyPolicy.authenticatorAllow = try models($1) },
        .list(
            "authenticator-deny", value: "aaguid", default: "none",
            help: "An authenticator model (AAGUID, UUID text) refused at registration when its attestation proves it."
        ) { $0.server.passkeyPolicy.authenticatorDeny = try models($1) },
    ]

    /// Money: fees, rates, lifetimes, limits, the payment provider.
    static let money: [Setting] = [
        .text(
            "fee-schedule", value: "file", default: "the built-in schedule",
            help: "A JSON file of transfer fees per currency (see docs/api.md)."
        ) { $0.server.feeSchedule = try loadFeeSchedule($1) },
        .text(
            "marketplace-rates", value: "file", default: "the built-in rates",
            help: "A JSON file of marketplace shipping and payment-method prices (see docs/api.md)."
        ) { $0.server.marketplaceRates = try loadMarketplaceRates($1) },
        .integer(
            "quote-seconds", 30...3_600, .seconds, default: "300",
            help: "How long a transfer quote waits for authorization."
        ) { $0.server.quoteSeconds = $1.seconds },
        .integer(
            "bid-hours", 1...2_160, .hours, default: "168: 7 days",
            help: "How long a bid waits for the seller to accept it before it expires."
        ) { $0.server.marketplaceTimeouts.bidSeconds = $1.seconds },
        .integer(
            "accepted-bid-hours", 1...720, .hours, default: "48",
            help: "How long an accepted bid waits for its payment before it expires and frees the product."
        ) { $0.server.marketplaceTimeouts.acceptedSeconds = $1.seconds },
        .integer(
            "buy-now-minutes", 5...1_440, .minutes, default: "30",
            help: "How long a buy-now waits for its payment before it expires and frees the product."
        ) { $0.server.marketplaceTimeouts.buyNowSeconds = $1.seconds },
        .list(
            "rate-limit", value: "name=count/seconds", default: "see docs/operations.md",
            help:
                "Change one rate limit, NAME one of \(RateLimits.Bucket.allCases.map(\.rawValue).joined(separator: ", "))."
        ) { configuration, settings in
            for setting in settings {
                do {
                    try configuration.server.rateLimits.apply(setting)
                } catch {
                    throw SettingProblem("\(error)")
                }
            }
        },
        .choice(
            "rate-limit-store", ["database", "memory"], default: "database on PostgreSQL, memory on SQLite",
            help:
                "Where the rate limits count: database (shared by every server on the store, so N instances do not give N times the limit) or memory (this process only)."
        ) { $0.server.sharedRateLimits = $1 == "database" },
        .flag("no-rate-limits", help: "Turn the rate limits off (a benchmark from one address; never in production).") {
            $0.server.rateLimits.enabled = false
        },
        .flag(
            "no-pin-allowance",
            help:
                "Let the PIN alone pay any amount any number of times (load and crash tests that pay by PIN; never in production)."
        ) { $0.noPinAllowance = true },
        .integer(
            "new-device-hours", 0...720, .hours, default: "24",
            help:
                "How long a device signed in to with the PIN and a code, or a key bound that way, stays new: it pays at most --new-device-max-amount at once, and no other key can be bound with the PIN and a code meanwhile."
        ) { $0.server.newDeviceSeconds = $1.seconds },
        .integer(
            "new-device-max-amount", 0...1_000_000_000_000, .minorUnits, default: "500000",
            help: "The most a new device or key may pay at once, in minor units of the wallet currency."
        ) { $0.server.newDeviceMaxAmount = $1.value },
        .list(
            "pin-max-amount", value: "amount", default: "30EUR, 50000NGN",
            help:
                "The most the PIN alone may pay at once, per currency: 30EUR, 50000NGN; beyond it the passkey is needed."
        ) { try pinAmounts(&$0.server.pinAllowance, $1, \.maxAmount) },
        .list(
            "pin-cumulative-amount", value: "amount", default: "100EUR, 150000NGN",
            help:
                "The most the PIN alone may pay in all between two passkey payments, per currency: 100EUR, 150000NGN; at most 5 payments either way."
        ) { try pinAmounts(&$0.server.pinAllowance, $1, \.cumulativeAmount) },
        .list(
            "limit-tier", separator: ";", value: "tier", default: "standard, tier1",
            help:
                "A spending limits tier: NAME:KIND=AMOUNT,… with KIND per_payment, daily, rolling_30_days or max_balance, e.g. tier1:daily=50000NGN,max_balance=300000NGN (replaces a tier of that name)."
        ) { configuration, entries in
            for entry in entries {
                let (name, limits) = try limitTier(entry)
                configuration.server.limitTiers.tiers[name] = limits
            }
        },
        .text(
            "default-limit-tier", value: "tier", default: "standard",
            help: "The tier of users an operator assigned none."
        ) { configuration, name in
            let tiers = configuration.server.limitTiers.tiers
            guard tiers[name] != nil else {
                throw SettingProblem("\(name): no such tier (have \(tiers.keys.sorted().joined(separator: ", ")))")
            }
            configuration.server.limitTiers.defaultTier = name
        },
        .integer(
            "limit-raise-delay", 0...720, .hours, default: "24",
            help: "Hours before a limit a user raised applies (lowering applies at once)."
        ) { $0.server.limitTiers.raiseDelaySeconds = $1.seconds },
        .secret("stripe-secret-key", environment: "STRIPE_SECRET_KEY", help: "The Stripe secret key.") {
            $0.stripeSecretKey = $1
        },
        .text(
            "stripe-secret-key-file", value: "file", default: "none: the payment simulator",
            help:
                "A 0600 file holding the Stripe secret key (sk_test_… or sk_live_…); with it, or STRIPE_SECRET_KEY, payments go to Stripe instead of the simulator."
        ) { $0.stripeSecretKeyFile = $1 },
        .secret(
            "stripe-webhook-secret", environment: "STRIPE_WEBHOOK_SECRET", help: "The Stripe webhook signing secret."
        ) { $0.stripeWebhookSecret = $1 },
        .text(
            "stripe-webhook-secret-file", value: "file", default: "none: Stripe's webhooks refused",
            help: "A 0600 file holding the Stripe webhook signing secret (whsec_…)."
        ) { $0.stripeWebhookSecretFile = $1 },
        .text(
            "stripe-api-base-url", environment: "STRIPE_API_BASE_URL", value: "url",
            default: "https://api.stripe.com", help: "Stripe's API address."
        ) { $0.stripeAPIBaseURL = $1 },
        .flag(
            "require-live-payments",
            help: "Refuse to start unless payments go to Stripe with a live key: never the simulator."
        ) { $0.requireLivePayments = true },
        .flag(
            "require-live-sms",
            help: "Refuse to start unless text messages go to Twilio (TWILIO_*): never the SMS simulator."
        ) { $0.requireLiveSMS = true },
    ]

    /// Sessions, streams, webhooks.
    static let runtime: [Setting] = [
        .integer("session-days", 1...365, .days, default: "30", help: "The longest a session lives.") {
            $0.server.sessionSeconds = $1.seconds
        },
        .integer(
            "session-idle-minutes", 5...43_200, .minutes, default: "720: 12 hours",
            help: "A session unused this long ends."
        ) { $0.server.sessionIdleSeconds = $1.seconds },
        .integer(
            "stream-fallback-seconds", 1...3_600, .seconds, default: "5",
            help: "How often an event stream re-reads the store without a change signal."
        ) { $0.server.streamFallbackSeconds = $1.seconds },
        .flag(
            "allow-private-webhook-targets",
            help:
                "Let webhooks go to loopback and private addresses, and over http: for tests and receivers on this network only."
        ) { $0.server.allowPrivateWebhookTargets = true },
        // Tests: the first webhook retry's delay, and the worker's pause.
        .integer(
            "webhook-retry-base-ms", 1...86_400_000, .milliseconds, default: "5000", hidden: true,
            help: "The first webhook retry's delay."
        ) { $0.server.webhookRetry.baseMillis = $1.milliseconds },
        .integer(
            "webhook-poll-ms", 10...3_600_000, .milliseconds, default: "1000", hidden: true,
            help: "The webhook worker's pause."
        ) { $0.server.webhookPollMillis = $1.milliseconds },
    ]

    /// Logs, traces, metrics.
    static let observability: [Setting] = [
        .choice(
            "log-level", Logger.Level.allCases.map(\.rawValue), environment: "LOG_LEVEL", default: "info",
            help: "The least severe log line written."
        ) { $0.logLevel = Logger.Level(rawValue: $1) ?? .info },
        .choice(
            "log-format", ["auto", "json", "text"], default: "auto",
            help: "json (one JSON object per line), text, or auto: json unless standard error is a terminal."
        ) { $0.logFormat = $1 },
        .text(
            "otlp-endpoint", value: "url", default: "off",
            help:
                "Export traces over OTLP/HTTP to this collector, e.g. http://127.0.0.1:4318 (the OTEL_EXPORTER_OTLP_* environment also turns it on)."
        ) { configuration, url in
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw SettingProblem("must be an http:// or https:// URL, e.g. http://127.0.0.1:4318")
            }
            configuration.otlpEndpoint = url
        },
        .text(
            "metrics-address", value: "host:port", default: "off",
            help:
                "Serve /metrics (Prometheus) on this HOST:PORT, a listener of its own with no authentication: keep it on loopback or a private network."
        ) { $0.server.metricsAddress = try hostAndPort($1) },
    ]

    /// The whole table, in the order the settings apply and `--help` lists them.
    package static let all: [Setting] = store + listener + passkeys + money + runtime + observability

    /// The setting that names a configuration file; it is read before the others.
    package static let configFile = "config"
    package static let configFileEnvironment = "COUNTERSIGN_CONFIG"
}
