extension ServeConfiguration {
    /// The checks and combinations of settings that only make sense together, after every setting
    /// applied: the web app's source, the attestation opt-out, the PIN allowance, the payment and SMS
    /// providers (Twilio from `TWILIO_*`, read by `TwilioConfiguration`), the metrics listener.
    mutating func finish(environment: [String: String]) throws(SettingsError) {
        switch (webRoot, noWeb) {
        case (.some, true): throw SettingsError("--web-root contradicts --no-web")
        case (.some(let path), false): server.web = .directory(path)
        case (nil, true): server.web = .off
        case (nil, false): server.web = .bundled
        }
        guard !(server.acceptUnverifiedAttestation && verifiedAttestationOnly) else {
            throw SettingsError("--accept-unverified-attestation contradicts --verified-attestation-only")
        }
        if noPinAllowance {
            server.pinAllowance = .unlimited
        } else if let (currency, _) = server.pinAllowance.rules.first(where: {
            $0.value.maxAmount > $0.value.cumulativeAmount
        }) {
            throw SettingsError(
                "--pin-max-amount for \(currency) is above its --pin-cumulative-amount: one payment could never be made"
            )
        }
        do {
            server.stripe = try StripeConfiguration.load(
                secretKey: stripeSecretKey, secretKeyFile: stripeSecretKeyFile, webhookSecret: stripeWebhookSecret,
                webhookSecretFile: stripeWebhookSecretFile, baseURL: stripeAPIBaseURL)
        } catch {
            throw SettingsError("\(error)")
        }
        if server.paymentsInTestMode, requireLivePayments {
            throw SettingsError(
                "--require-live-payments: payments would go to \(server.stripe.map(String.init(describing:)) ?? "the payment simulator"); configure a live Stripe key (STRIPE_SECRET_KEY=sk_live_…)"
            )
        }
        do {
            server.twilio = try TwilioConfiguration.fromEnvironment(environment)
        } catch {
            throw SettingsError("\(error)")
        }
        if !server.smsIsLive, requireLiveSMS {
            throw SettingsError(
                "--require-live-sms: text messages would go to \(server.twilio.map(String.init(describing:)) ?? "the SMS simulator, whose codes anyone can read at /sim/sms"); set TWILIO_ACCOUNT_SID, TWILIO_API_KEY_SID, TWILIO_API_KEY_SECRET and TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID)"
            )
        }
        if let metrics = server.metricsAddress, metrics.port == server.port {
            throw SettingsError("--metrics-address must not use the API's port \(server.port)")
        }
    }
}
