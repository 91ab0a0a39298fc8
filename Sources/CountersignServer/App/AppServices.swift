import CountersignStore
import Logging
import WebAuthn

/// The wired-up services of one server process.
package struct AppServices: Sendable {
    package let configuration: ServerConfiguration
    package let database: any Database
    package let clock: WallClock
    package let accounts: AccountService
    package let biometric: BiometricService
    package let topUps: TopUpService
    /// The spending limits users see and change.
    package let limits: LimitsService
    package let wallets: WalletService
    package let transfers: TransferService
    package let marketplace: MarketplaceService
    /// Money in: wallet fundings by card or bank through the payment provider.
    package let fundings: FundingService
    /// Takes marketplace payments: the simulator unless another provider is configured.
    package let paymentProvider: any PaymentProvider
    /// The built-in simulator when it is the provider, for its payer-facing pages.
    package let simulatedPaymentProvider: SimulatedPaymentProvider?
    /// Checks payment-provider webhooks signed with `Countersign-Signature`.
    package let webhookSignature: WebhookSignature
    /// Checks Stripe's webhooks (`Stripe-Signature`), when Stripe and its webhook secret are configured.
    package let stripeWebhookSignature: WebhookSignature?
    /// Counts requests against the rate limits.
    package let throttle: RequestThrottle
    /// The web app's files, or nil for an API-only server.
    package let webFiles: WebFiles?
    /// Opens when `prepareStore()` has migrated the schema.
    package let storeReadiness = StoreReadiness()
    /// This process, as its idempotency claims name it.
    package let instance = ServerInstance.current()
    /// Opens when `instanceLease.start()` has registered this process.
    package let instanceRegistered = StoreReadiness()
    /// The background workers that are running, for `/health/ready`.
    package let workers = WorkerStatus()
    /// This server's metrics, which `/metrics` serves.
    package let metrics: ServerMetrics
    /// Operator flags, the operator action log and the audit log.
    package let operators: OperatorService
    /// The operator console's work on users' accounts.
    package let operatorConsole: OperatorConsole
    /// Sends text messages in the background: one-time codes and security notices.
    package let smsDispatcher: SMSDispatcher
    /// The SMS simulator when it is the provider (test mode), for `GET /sim/sms`.
    package let simulatedSMS: SimulatedSMSSender?
    /// One-time codes that prove a phone number.
    package let verifications: PhoneVerifications
    /// The operator's webhook endpoints.
    package let webhooks: WebhookService
    let logger: Logger
    /// The airtime supplier top-ups are bought from.
    let supplier: any AirtimeSupplier

    /// The background settlement of top-ups a stopped process left pending.
    package var pendingTopUpSweeper: PendingTopUpSweeper {
        PendingTopUpSweeper(
            topUps: topUps, database: database, clock: clock, supplier: supplier, metrics: metrics, logger: logger,
            instance: instance, ready: instanceRegistered,
            minimumAgeMillis: PendingTopUpSweeper.defaultMinimumAgeMillis, interval: PendingTopUpSweeper.defaultInterval
        )
    }

    /// This process's lease in `server_instances`, which keeps its idempotency claims its own.
    package var instanceLease: InstanceLease {
        InstanceLease(
            instance: instance, database: database, clock: clock,
            registered: instanceRegistered, logger: logger)
    }

    /// The background worker that moves transfers on.
    package var transferProcessor: TransferProcessor {
        TransferProcessor(
            database: database, clock: clock, feed: transfers.feed, configuration: configuration,
            metrics: metrics, storeReadiness: storeReadiness, logger: logger)
    }

    /// Settles orders and wallet fundings whose payment has been pending for over two minutes.
    package var pendingOrderSweeper: PendingOrderSweeper {
        PendingOrderSweeper(
            marketplace: marketplace, fundings: fundings, clock: clock, storeReadiness: storeReadiness,
            minimumAgeMillis: 120_000, interval: .seconds(60), logger: logger)
    }

    /// Deletes spent challenges, tokens, codes and ended sessions every ten minutes.
    package var storePurger: StorePurger {
        StorePurger(
            database: database, clock: clock, storeReadiness: storeReadiness, interval: .seconds(600), logger: logger)
    }

    /// Sends the webhook outbox.
    package var webhookWorker: WebhookDeliveryWorker {
        WebhookDeliveryWorker(
            // Registered first: until this instance's row exists, its leases would look abandoned.
            database: database, clock: clock, instance: instance, ready: instanceRegistered,
            sender: WebhookSender(
                policy: WebhookTargetPolicy(allowPrivate: configuration.allowPrivateWebhookTargets),
                timeout: .seconds(configuration.webhookTimeoutSeconds)),
            retry: configuration.webhookRetry, metrics: metrics, logger: logger,
            interval: .milliseconds(configuration.webhookPollMillis))
    }

    /// Brings transfer changes committed by other processes (PostgreSQL) to this one's streams.
    package var transferChangeListener: TransferChangeListener {
        TransferChangeListener(database: database, feed: transfers.feed, logger: logger)
    }

    init(
        configuration: ServerConfiguration, database: any Database, clock: WallClock, supplier: any AirtimeSupplier,
        pepper: [UInt8], tokenSecret: [UInt8],
        webhookSecret: [UInt8], returnURLs: ReturnURLPolicy, webFiles: WebFiles?, metrics: ServerMetrics,
        smsSender: (any SMSSender)?, logger: Logger
    ) async {
        self.metrics = metrics
        self.operators = OperatorService(database: database, clock: clock, phoneRegion: configuration.phoneRegion)
        self.webhooks = WebhookService(
            database: database, clock: clock,
            policy: WebhookTargetPolicy(allowPrivate: configuration.allowPrivateWebhookTargets))
        self.webFiles = webFiles
        self.webhookSignature = WebhookSignature(secret: webhookSecret)
        self.stripeWebhookSignature = configuration.stripe?.webhookSecret.map {
            WebhookSignature(secret: $0, headerName: "Stripe-Signature")
        }
        let pins = PinHasher(
            pepper: pepper, rounds: configuration.pinHashRounds,
            pool: PinHashPool(limit: configuration.pinHashQueueLimit, clock: clock))
        let tokens = VerificationTokens(secret: tokenSecret)
        let intents = IntentValidator(currency: configuration.currency, phoneRegion: configuration.phoneRegion)
        let lock = PaymentLock(
            database: database, clock: clock, threshold: configuration.paymentFailureThreshold,
            lockSeconds: configuration.paymentLockSeconds, metrics: metrics)
        let pinGuard = PinGuard(
            database: database, pins: pins, clock: clock,
            threshold: configuration.paymentFailureThreshold,
            schedule: PinLockSchedule(base: configuration.paymentLockSeconds), metrics: metrics)
        let relyingParty = configuration.relyingParty
        let liveSMS: (any SMSSender)? =
            smsSender ?? configuration.twilio.map { TwilioSMSSender(configuration: $0, logger: logger) }
        let simulatedSMS = liveSMS == nil ? SimulatedSMSSender(database: database, clock: clock) : nil
        self.simulatedSMS = simulatedSMS
        let smsDispatcher = SMSDispatcher(
            sender: liveSMS ?? simulatedSMS ?? SimulatedSMSSender(database: database, clock: clock), logger: logger,
            metrics: metrics)
        self.smsDispatcher = smsDispatcher
        let verifications = PhoneVerifications(
            database: database, pepper: pepper, clock: clock, configuration: configuration,
            dispatcher: smsDispatcher, metrics: metrics)
        self.verifications = verifications
        let newDeviceLimit = NewDeviceLimit(
            maxAmount: configuration.newDeviceMaxAmount, currency: configuration.currency, clock: clock)
        self.configuration = configuration
        self.throttle = RequestThrottle(
            limiter: RateLimiter(
                limits: configuration.rateLimits, clock: clock,
                store: configuration.sharedRateLimits ?? (database.engine == .postgres)
                    ? .database(database, pepper: pepper) : .memory),
            clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies), metrics: metrics
        )
        self.database = database
        self.clock = clock
        self.logger = logger
        self.accounts = AccountService(
            database: database, pins: pins,
            pinGuard: pinGuard, clock: clock, configuration: configuration, verifications: verifications)
        let biometric = BiometricService(
            database: database,
            tokens: tokens, lock: lock, pinGuard: pinGuard, intents: intents, clock: clock,
            configuration: configuration,
            registrationVerifier: RegistrationVerifier(
                relyingParty: relyingParty,
                attestationPolicy: configuration.acceptUnverifiedAttestation ? .verifiedOrUnverifiable : .verifiedOnly),
            assertionVerifier: AssertionVerifier(relyingParty: relyingParty), metrics: metrics,
            verifications: verifications, newDeviceLimit: newDeviceLimit,
            paymentConfirmation: PaymentConfirmation(configuration: configuration)
        )
        self.biometric = biometric
        self.transfers = TransferService(
            database: database, lock: lock,
            biometric: biometric, feed: TransferFeed(), instance: instance,
            clock: clock,
            configuration: configuration, metrics: metrics
        )
        let authorizer = PaymentAuthorizer(
            database: database, tokens: tokens, assertions: biometric,
            lock: lock, pinGuard: pinGuard, newDeviceLimit: newDeviceLimit, pinAllowance: configuration.pinAllowance,
            limits: SpendingLimits(tiers: configuration.limitTiers), clock: clock)
        self.supplier = supplier
        self.topUps = TopUpService(
            database: database, authorizer: authorizer, intents: intents, supplier: supplier,
            clock: clock, logger: logger, metrics: metrics, instance: instance)
        var paymentProvider: any PaymentProvider
        if let stripe = configuration.stripe {
            paymentProvider = StripePaymentProvider(
                configuration: stripe, database: database, clock: clock, logger: logger)
            self.simulatedPaymentProvider = nil
        } else {
            let simulator = SimulatedPaymentProvider(
                database: database, clock: clock, publicBaseURL: configuration.publicBaseURL)
            paymentProvider = simulator
            self.simulatedPaymentProvider = simulator
        }
        if configuration.exportedTraceId != nil { paymentProvider = TracedPaymentProvider(base: paymentProvider) }
        self.paymentProvider = paymentProvider
        self.marketplace = MarketplaceService(
            database: database,
            provider: paymentProvider,
            clock: clock, rates: configuration.marketplaceRates, timeouts: configuration.marketplaceTimeouts,
            returnURLs: returnURLs, metrics: metrics, instance: instance, biometric: biometric,
            authorizer: authorizer
        )
        let wallets = WalletService(
            database: database, clock: clock,
            currencies: configuration.walletCurrencies, phoneRegion: configuration.phoneRegion)
        self.wallets = wallets
        self.fundings = FundingService(
            database: database, wallets: wallets, provider: paymentProvider,
            returnURLs: returnURLs, clock: clock, instance: instance, metrics: metrics,
            limits: SpendingLimits(tiers: configuration.limitTiers))
        self.operatorConsole = OperatorConsole(
            database: database, clock: clock, wallets: wallets, pinGuard: pinGuard, currency: configuration.currency,
            phoneRegion: configuration.phoneRegion, limitTiers: configuration.limitTiers, instance: instance)
        self.limits = LimitsService(
            database: database, limits: SpendingLimits(tiers: configuration.limitTiers),
            biometric: biometric, clock: clock)
    }

    /// Migrates the schema and opens the system accounts; run before serving.
    package func prepareStore() async throws {
        try await Migrator.migrate(database, logger: logger)
        // The wallets' currencies and the marketplace's: system accounts exist before money moves.
        let currencies = Set(configuration.walletCurrencies + [configuration.marketplaceRates.currency])
        let now = clock.nowMillis()
        try await database.transaction { sql in
            for currency in currencies.sorted() {
                try await sql.ledger.openSystemAccounts(currency: currency, now: now)
            }
        }
        storeReadiness.open()
    }
}
