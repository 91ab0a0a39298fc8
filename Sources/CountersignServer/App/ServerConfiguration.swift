import CountersignCore
import NIOCore
import WebAuthn

/// Everything the server needs to run, resolved from flags, then environment, then defaults.
package struct ServerConfiguration: Sendable {
    /// Where to listen.
    package var host = "127.0.0.1"
    package var port = 8080
    /// The data directory: the SQLite file and generated secrets live here.
    package var dataDirectory = "./.countersign"
    /// A `postgres://` URL; nil means embedded SQLite in `dataDirectory`.
    package var databaseURL: String?
    /// The WebAuthn relying party id (a domain; `localhost` in development).
    package var rpId = "localhost"
    package var rpName = "Countersign"
    /// Allowed origins; empty means the server's own `http://localhost:<port>`.
    package var origins: [String] = []
    /// Cross-origin (iframe) ceremonies are refused unless this is set.
    package var allowCrossOrigin = false
    /// Whether registered attestation formats the verifier cannot check (android-safetynet, compound) are
    /// accepted as unverified. Off by default: a payments server should not store claims it cannot check.
    package var acceptUnverifiedAttestation = false
    /// What a passkey must prove to be registered and to authorize payments (`--synced-passkeys`).
    package var passkeyPolicy = PasskeyPolicy()
    /// `required` (the default: a payment needs the biometric) or `preferred`.
    package var userVerification = "required"
    /// How long a challenge lives, in milliseconds (announced as `timeout`).
    package var challengeTimeoutMillis: Int64 = 120_000
    /// How long a verification token lives, in seconds (announced as `expiresIn`).
    package var verificationTokenSeconds: Int64 = 300
    /// How long a session lives at most, in seconds (`--session-days`).
    package var sessionSeconds: Int64 = 30 * 24 * 3600
    /// A session unused for this long ends, in seconds (`--session-idle-minutes`).
    package var sessionIdleSeconds: Int64 = 12 * 3600
    /// Requests per client address and per account before 429 (`--rate-limit`, `--no-rate-limits`).
    package var rateLimits = RateLimits()
    /// Where the rate limits count: `true` in the store, shared by every process on it; `false` in
    /// this process's memory; nil (the default) in the store on PostgreSQL, in memory on SQLite.
    package var sharedRateLimits: Bool?
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); nobody else's is read.
    package var trustedProxies: [String] = []
    /// Consecutive failed payment authentications before the lock, and its length.
    package var paymentFailureThreshold: Int64 = 5
    package var paymentLockSeconds: Int64 = 15 * 60
    /// How long a device or key bound with the PIN and a code (not by another key) is in its
    /// cooling-off, in seconds (`--new-device-hours`), and the most it may pay at once meanwhile, in
    /// minor units (`--new-device-max-amount`).
    package var newDeviceSeconds: Int64 = 24 * 3600
    package var newDeviceMaxAmount: Int64 = 500_000
    /// What the PIN alone may pay (`--pin-max-amount`, `--pin-cumulative-amount`).
    package var pinAllowance = PinAllowance.standard
    /// The spending limits tiers (`--limit-tier`, `--default-limit-tier`, `--limit-raise-delay`).
    package var limitTiers = LimitTiers.standard
    /// PBKDF2-SHA256 rounds for PINs. 210,000 is OWASP's floor; tests lower it for speed.
    package var pinHashRounds = 210_000
    /// PIN hashes admitted at once, running or waiting; past it, 503 `server_busy`. At 0.1 s a hash
    /// on each core, 32 a core wait at most about 3 s.
    package var pinHashQueueLimit = 32 * System.coreCount
    /// The primary wallet currency: airtime, transfers and the fields of `GET /user/wallet` outside
    /// `wallets` are in it.
    package var currency = "NGN"
    /// The other wallets each user holds, one per currency (`--wallet-currency`, repeated; the first is
    /// the primary). Money never converts between them.
    package var otherWalletCurrencies = ["EUR"]
    /// Every wallet currency, the primary first, each once.
    package var walletCurrencies: [String] {
        get { [currency] + otherWalletCurrencies.filter { $0 != currency } }
        set {
            guard let primary = newValue.first else { return }
            currency = primary
            otherWalletCurrencies = Array(newValue.dropFirst()).filter { $0 != primary }
        }
    }
    /// How phone numbers written without a country code are read (`--phone-region`).
    package var phoneRegion = PhoneRegion.nigeria
    /// The largest request body accepted, in bytes.
    package var maxBodyBytes = 64 * 1024
    /// Transfer fees per currency (`--fee-schedule FILE`, JSON; the defaults are in docs/api.md, "Fees").
    package var feeSchedule = FeeSchedule.standard
    /// How long a transfer quote may wait for the payer's signature, in seconds.
    package var quoteSeconds: Int64 = 300
    /// The background worker's pass interval when nothing wakes it, in milliseconds (lapsed quotes).
    package var transferPollMillis: Int64 = 1_000
    /// An event stream re-reads the store at least this often even without a signal, in seconds.
    package var streamFallbackSeconds: Int64 = 5
    /// An event stream is closed after this long; the client reconnects with `Last-Event-ID`.
    package var streamMaxSeconds: Int64 = 300
    /// Marketplace shipping and payment-method prices (`--marketplace-rates FILE`).
    package var marketplaceRates = MarketplaceRates.standard
    /// How long bids and unpaid accepted bids live before they expire (see `MarketplaceTimeouts`).
    package var marketplaceTimeouts = MarketplaceTimeouts()
    /// Where payers' browsers reach this server (the payment simulator's hosted page); by default
    /// `http://localhost:<port>`.
    package var publicBaseURL: String {
        get { configuredPublicBaseURL ?? "http://localhost:\(port)" }
        set { configuredPublicBaseURL = newValue.hasSuffix("/") ? String(newValue.dropLast()) : newValue }
    }
    private var configuredPublicBaseURL: String?
    /// The payee origin Secure Payment Confirmation shows (`--payee-origin`, https only); nil means
    /// the public base URL's origin when that is https, and none otherwise (SPC refuses http).
    package var payeeOrigin: String?
    /// Where a payment provider's page may send the payer back: origins (`https://shop.example`) and
    /// app schemes (`myapp:`); empty means the public base URL only (`--return-origin`).
    package var returnOrigins: [String] = []
    /// Other web origins whose pages may call the API from a browser (`--cors-origin`); none by default.
    package var corsOrigins: [String] = []
    /// Where the web app's files come from: the bundled app, a directory (`--web-root`), or none
    /// for an API-only server (`--no-web`).
    package var web = WebSource.bundled
    /// Secrets; nil means read or generate them in the data directory.
    package var tokenSecret: [UInt8]?
    /// The secret payment-provider webhooks are signed with (`COUNTERSIGN_PAYMENT_WEBHOOK_SECRET`);
    /// nil means read or generate `<data-dir>/secrets/payment-webhook`.
    package var paymentWebhookSecret: [UInt8]?
    package var pinPepper: [UInt8]?
    /// Stripe, when a secret key is configured (`STRIPE_SECRET_KEY` or `--stripe-secret-key-file`);
    /// nil means the built-in payment simulator.
    package var stripe: StripeConfiguration?
    /// Twilio, when `TWILIO_ACCOUNT_SID` is set (with the API key and a sender); nil means the SMS simulator.
    package var twilio: TwilioConfiguration?
    /// Whether text messages reach real phones: Twilio over https, never the simulator.
    package var smsIsLive: Bool { twilio?.baseURL.hasPrefix("https://") ?? false }
    /// The current span's trace id, set when `countersign serve` exports traces (OTLP): then every
    /// request gets a span, and the store, the airtime supplier and the payment provider get spans
    /// inside it (`RequestSpanMiddleware`). Nil: no spans, and each request a random trace id.
    package var exportedTraceId: (@Sendable () -> String?)?
    /// Where `/metrics` listens (Prometheus text format), on a listener of its own; nil: nowhere.
    /// It has no authentication, so it belongs on loopback or a private network.
    package var metricsAddress: (host: String, port: Int)?

    /// Webhooks may go to private and loopback addresses, and over http
    /// (`--allow-private-webhook-targets`): for tests and receivers on the server's own network only.
    package var allowPrivateWebhookTargets = false
    /// When failed webhook deliveries are tried again, and when they and their endpoint give up.
    package var webhookRetry = WebhookRetryPolicy()
    /// The webhook worker's pause between passes that found nothing to send.
    package var webhookPollMillis: Int64 = 1_000
    /// The most one webhook attempt may take, in seconds.
    package var webhookTimeoutSeconds: Int64 = 10

    package init() {}

    package enum WebSource: Sendable, Equatable {
        case bundled
        case directory(String)
        case off
    }

    /// Whether payments are only pretend: the built-in simulator, or Stripe's test mode.
    package var paymentsInTestMode: Bool { stripe.map { $0.mode == .test } ?? true }

    /// The relying party the verifiers check against.
    package var relyingParty: RelyingParty {
        RelyingParty(
            id: rpId, name: rpName,
            origins: Set(origins.isEmpty ? ["http://localhost:\(port)"] : origins),
            allowCrossOrigin: allowCrossOrigin
        )
    }
}
