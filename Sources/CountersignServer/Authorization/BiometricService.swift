import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore
import Foundation
import NIOPosix
import WebAuthn

/// WebAuthn registration of device keys and passkeys, and transaction-bound authentication that
/// ends in a verification token.
package struct BiometricService: Sendable {
    let database: any Database
    let tokens: VerificationTokens
    let lock: PaymentLock
    let pinGuard: PinGuard
    let intents: IntentValidator
    let clock: WallClock
    let configuration: ServerConfiguration
    let registrationVerifier: RegistrationVerifier
    let assertionVerifier: AssertionVerifier
    let metrics: ServerMetrics
    let verifications: PhoneVerifications
    let newDeviceLimit: NewDeviceLimit
    /// What Secure Payment Confirmation shows for this server's payment challenges, made once from
    /// the configuration (its payee origin is a parsed URL).
    let paymentConfirmation: PaymentConfirmation
    /// Stored credential keys, decoded once each.
    let publicKeys = CredentialPublicKeyCache()

    /// Algorithms offered at registration, in order of preference; registration refuses any other.
    static let offeredAlgorithms: [COSEAlgorithm] = [.es256, .edDSA, .es384, .es512, .rs256]

    /// Creation options with a fresh single-use challenge, once `stepUp` checks out. With
    /// `payment: true` they carry Secure Payment Confirmation's `payment` extension, which browsers
    /// accept only for a discoverable credential with user verification on a platform authenticator
    /// (Chromium: NotSupportedError otherwise), so all three are required too.
    package func registrationOptions(userId: String, stepUp: RegistrationOptionsRequest, session: LiveSession?)
        async throws -> RegistrationOptionsResponse
    {
        let binding = try await checkStepUp(userId: userId, stepUp, session: session)
        let user = try await loadUser(userId)
        let challenge = Base64URL.encode(SecureRandom.bytes(32))
        let now = clock.nowMillis()
        let forPayments = stepUp.payment == true
        let userVerification = forPayments ? "required" : configuration.userVerification
        let stored = StoredChallenge(
            challenge: challenge, userId: userId, purpose: .registration, intent: binding.intent, intentDigest: nil,
            userVerification: userVerification, expiresAt: now + configuration.challengeTimeoutMillis
        )
        let existing = try await database.transaction { sql in
            try await sql.challenges.insert(stored, now: now)
            return try await sql.credentials.list(userId: userId)
        }
        metrics.challengeIssued(purpose: "registration")
        return RegistrationOptionsResponse(
            challenge: challenge,
            rp: .init(id: configuration.rpId, name: configuration.rpName),
            user: .init(id: user.userHandle, name: user.phone, displayName: user.name),
            pubKeyCredParams: Self.offeredAlgorithms.map { .init(type: "public-key", alg: $0.rawValue) },
            timeout: Int(configuration.challengeTimeoutMillis),
            attestation: "direct",
            authenticatorSelection: .init(
                authenticatorAttachment: forPayments ? "platform" : nil,
                residentKey: forPayments ? "required" : "preferred", userVerification: userVerification
            ),
            excludeCredentials: existing.map {
                CredentialDescriptor(id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            extensions: forPayments ? RegistrationExtensions(payment: .init(isPayment: true)) : nil
        )
    }

    /// Verifies a registration response against its challenge and stores the credential.
    package func verifyRegistration(userId: String, _ body: RegistrationResponseJSON) async throws
        -> RegistrationVerifyResponse
    {
        guard body.type == "public-key" else { throw APIError(.invalidType, "type must be public-key.") }
        let rawId = try Self.decode(body.rawId, field: "rawId")
        guard body.id == Base64URL.encode(rawId) else {
            throw APIError(.idMismatch, "id must be the base64url of rawId.")
        }
        let clientData = try Self.decode(body.response.clientDataJSON, field: "response.clientDataJSON")
        let attestationObject = try Self.decode(body.response.attestationObject, field: "response.attestationObject")
        let challengeText = try Self.challenge(in: clientData)
        let now = clock.nowMillis()
        let consumed = try await database.transaction { sql in
            try await sql.challenges.consume(
                challenge: challengeText, userId: userId, purpose: .registration, now: now)
        }
        guard let stored = consumed, let expected = Base64URL.decode(stored.challenge) else {
            throw APIError(.invalidChallenge, "The challenge is unknown, expired or already used.")
        }
        let (verifier, userVerificationRequired) = (registrationVerifier, stored.userVerification == "required")
        // Off the event loop: RSA, Ed448 and X.509 chain checks can take milliseconds.
        let outcome = try await NIOThreadPool.singleton.runIfActive {
            Result { () throws(WebAuthnError) -> VerifiedRegistration in
                try verifier.verify(
                    clientDataJSON: clientData, attestationObject: attestationObject, rawId: rawId,
                    expectedChallenge: expected,
                    userVerificationRequired: userVerificationRequired, allowedAlgorithms: Set(Self.offeredAlgorithms)
                )
            }
        }
        let verified: VerifiedRegistration
        switch outcome {
        case .success(let registration): verified = registration
        case .failure(let error):
            throw APIError(error, message: "Registration failed: \(error.message)")
        }
        try configuration.passkeyPolicy.checkRegistration(flags: verified.flags)
        let aaguid = AuthenticatorMetadata.text(aaguid: verified.aaguid) ?? ""
        let entry = try await database.read { sql in try await sql.metadata.find(aaguid: aaguid) }
        let attested = try AuthenticatorTrust.evaluate(verified, metadata: entry)
        try configuration.passkeyPolicy.checkAuthenticator(aaguid: verified.aaguid, attested: attested)
        let binding = KeyBinding(intent: stored.intent)
        var newCredential = StoredCredential(
            id: Base64URL.encode(verified.credentialId), userId: userId,
            publicKey: Base64URL.encode(verified.credentialPublicKey),
            algorithm: Int64(verified.algorithm.rawValue), signCount: Int64(verified.signCount),
            backupEligible: verified.flags.backupEligible, backupState: verified.flags.backupState,
            transports: (body.response.transports ?? []).filter { $0.count < 32 }.prefix(8).map { $0 },
            attestationFormat: verified.attestationFormat, attestationVerified: verified.attestationVerified,
            flaggedAt: nil
        )
        newCredential.boundBy = binding.boundBy
        newCredential.coolingUntil = binding.coolingUntil
        let credential = newCredential
        try await database.transaction { sql in
            try await sql.credentials.insert(credential, aaguid: Base64URL.encode(verified.aaguid), now: now)
            try await sql.accountEvents.record(
                userId: userId, kind: .keyBound,
                detail: binding.coolingUntil > now
                    ? "A device key was added with the PIN and a code; it pays little until its cooling-off ends."
                    : "A device key was added.", now: now)
        }
        if binding.boundBy == "pin-code" {
            let user = try await loadUser(userId)
            verifications.notify(
                user.phone,
                "A new device key was added to your Countersign account. If this was not you, reset your PIN and remove the key in Security.",
                kind: "key_bound")
        }
        return RegistrationVerifyResponse(verified: true, credentialId: credential.id)
    }

    /// Request options for authorizing `intent`: the challenge is `SHA-256(nonce ‖ canonical intent)`.
    package func authenticationOptions(
        userId: String, _ request: AuthenticationOptionsRequest, session: LiveSession? = nil
    ) async throws -> AuthenticationOptionsResponse {
        let intent = try intents.airtime(
            amount: request.amount, productCode: request.productCode, recipientPhone: request.recipientPhone,
            supplierSlug: request.supplierSlug)
        return try await paymentOptions(userId: userId, intent: intent, session: session) { balances in
            try Self.ensureAffordable(intent: intent, wallet: balances.wallet, cashback: balances.cashback)
        }
    }

    /// Request options for authorizing any wallet payment's `intent`; `ensureFunds` refuses, before
    /// any gesture, a payment the balances of the payer's wallet and cashback in its currency
    /// (read with the limits) cannot cover.
    func paymentOptions(
        userId: String, intent: PaymentIntent, session: LiveSession?,
        ensureFunds: @Sendable (_ balances: (wallet: Int64, cashback: Int64)) throws -> Void
    ) async throws -> AuthenticationOptionsResponse {
        let user: User
        if let known = session?.user(userId) { user = known } else { user = try await loadUser(userId) }
        try lock.ensureUnlocked(user)
        let nonce = SecureRandom.bytes(32)
        let challenge = Base64URL.encode(intent.challenge(nonce: nonce))
        let now = clock.nowMillis()
        let stored = StoredChallenge(
            challenge: challenge, userId: userId, purpose: .authentication,
            intent: String(decoding: intent.canonicalBytes, as: UTF8.self),
            intentDigest: Base64URL.encode(intent.digest),
            userVerification: configuration.userVerification, expiresAt: now + configuration.challengeTimeoutMillis
        )
        // Read outside the writer: only the challenge insert needs a write transaction. The keys,
        // the limits, the PIN allowance used, the paid-out windows and the balances come in one statement.
        let allowance = configuration.pinAllowance
        let accounts = (
            wallet: LedgerRepository.accountId(userId: userId, kind: .wallet, currency: intent.currency),
            cashback: LedgerRepository.accountId(userId: userId, kind: .cashback, currency: intent.currency)
        )
        let snapshot = try await database.read { sql in
            try await sql.limits.snapshot(
                userId: userId, currency: intent.currency, windows: SpendingLimits.windows(now),
                balancesOf: accounts, withCredentials: true)
        }
        let all = snapshot.credentials ?? []
        let pinAllowed = allowance.permits(used: snapshot.pinUsed, amount: intent.amount, currency: intent.currency)
        let live = all.filter { $0.flaggedAt == nil }
        guard !live.isEmpty else {
            // Neither factor path is open: say that the passkey is needed, not that the PIN will do.
            guard pinAllowed else { throw allowance.refusal(intent.currency) }
            throw APIError(.noRegisteredCredential, "Register a device key first, or pay with your PIN.")
        }
        // Before any gesture: a new device (or only new keys) over the limit is refused now, and a
        // key still in its cooling-off is not offered for an amount over it.
        try newDeviceLimit.check(amount: intent.amount, session: session)
        try ensureFunds(snapshot.balances ?? (wallet: 0, cashback: 0))
        try SpendingLimits(tiers: configuration.limitTiers).checkOutgoing(
            snapshot, currency: intent.currency, amount: intent.amount, now: now)
        let usable = live.filter { (try? newDeviceLimit.check(amount: intent.amount, session: nil, key: $0)) != nil }
        guard !usable.isEmpty else {
            try newDeviceLimit.check(
                amount: intent.amount, session: nil, key: live.max { $0.coolingUntil < $1.coolingUntil })
            throw APIError(.noRegisteredCredential, "Register a device key first, or pay with your PIN.")
        }
        try await database.single { sql in try await sql.challenges.insert(stored, now: now) }
        metrics.challengeIssued(purpose: "payment")
        let timeout = Int(configuration.challengeTimeoutMillis)
        return AuthenticationOptionsResponse(
            challenge: challenge, rpId: configuration.rpId,
            allowCredentials: usable.map {
                CredentialDescriptor(id: $0.id, transports: $0.transports.isEmpty ? nil : $0.transports)
            },
            userVerification: configuration.userVerification, timeout: timeout, transaction: intent,
            nonce: Base64URL.encode(nonce),
            securePaymentConfirmation: paymentConfirmation.data(
                paymentConfirmation.expected(
                    amount: intent.amount, currency: intent.currency, payee: try await payeeName(intent)),
                challenge: challenge,
                credentialIds: usable.map(\.id), timeout: timeout
            ),
            pinAllowed: pinAllowed
        )
    }

    /// Refuses a top-up the wallet and cashback together cannot pay, before the passkey is asked;
    /// the debit checks again (the balance may change before the signature).
    static func ensureAffordable(intent: PaymentIntent, wallet: Int64, cashback: Int64) throws(APIError) {
        let available = wallet.addingReportingOverflow(cashback).overflow ? Int64.max : wallet + cashback
        guard available >= intent.amount else {
            throw APIError(.insufficientFunds, "Your balance is too low for this top-up. Nothing was charged.")
        }
    }

    /// What a payment challenge's Secure Payment Confirmation showed, computed again from its
    /// intent: the total, and for a marketplace order the seller it pays. Nil for any other challenge.
    func paymentConfirmation(_ challenge: StoredChallenge) async throws -> SecurePaymentConfirmation? {
        guard let intent = paymentConfirmation.intent(of: challenge) else { return nil }
        return paymentConfirmation.expected(
            amount: intent.amount, currency: intent.currency, payee: try await payeeName(intent))
    }

    /// Who a wallet payment pays, by name, where it is a person: a marketplace order's seller
    /// (`supplierSlug` carries their id). Nil for airtime, paid to Countersign's supplier.
    func payeeName(_ intent: PaymentIntent) async throws -> String? {
        guard intent.kind == MarketplaceService.walletIntentKind else { return nil }
        return try await database.read { sql in try await sql.users.find(id: intent.supplierSlug) }?.name
    }

    /// The user, or 401 if the session outlived them.
    func loadUser(_ userId: String) async throws -> User {
        guard let user = try await database.read({ sql in try await sql.users.find(id: userId) }) else {
            throw APIError.unauthenticated
        }
        return user
    }

    /// Decodes a base64url field or refuses with 400 naming it.
    static func decode(_ text: String, field: String) throws(APIError) -> [UInt8] {
        guard text.utf8.count <= 16_384, let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw APIError(.invalidBase64URL, "\(field) must be non-empty base64url without padding.")
        }
        return bytes
    }

    /// The `challenge` member of clientDataJSON, to find the stored challenge it answers. The
    /// verifier then checks the whole document.
    static func challenge(in clientDataJSON: [UInt8]) throws(APIError) -> String {
        // Every challenge is issued as base64url: anything else answers none, and must not reach the
        // lookup (PostgreSQL cannot even compare a NUL).
        guard let parsed = try? CollectedClientData(json: clientDataJSON), parsed.challenge.utf8.count <= 256,
            let bytes = Base64URL.decode(parsed.challenge), !bytes.isEmpty
        else {
            throw APIError(.malformedClientData, "clientDataJSON must be JSON with a base64url challenge.")
        }
        return parsed.challenge
    }
}

extension WebAuthnError {
    /// Whether the request was malformed (400) rather than refused (401).
    var isMalformedInput: Bool { code.rawValue.hasPrefix("malformed") || code.rawValue.hasPrefix("invalid_base64") }
}
