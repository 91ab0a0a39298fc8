import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore
import Crypto

/// One-time codes sent by SMS, the proof that someone holds a number.
///
/// Asking for a code answers the same whether or not the number has an account: where a code would
/// be of no use (signing in to a number nobody registered), a verification is stored whose code
/// matches nothing and no message goes out; a signup on a number someone proved already sends
/// its holder a warning instead. Messages leave through `SMSDispatcher`'s queue, so the answer's
/// time does not tell either.
///
/// A code: six digits, ten minutes, five tries (each counted in its own committed transaction
/// before it is compared, so parallel tries cannot exceed five), stored only as an HMAC keyed with
/// a key derived from the server's PIN pepper, compared in constant time, spent in the transaction
/// of the operation it unlocks.
package struct PhoneVerifications: Sendable {
    let database: any Database
    let codeKey: SymmetricKey
    let clock: WallClock
    let configuration: ServerConfiguration
    let dispatcher: SMSDispatcher
    let metrics: ServerMetrics

    static let lifetimeMillis: Int64 = 600_000
    static let maxTries: Int64 = 5

    package init(
        database: any Database, pepper: [UInt8], clock: WallClock,
        configuration: ServerConfiguration, dispatcher: SMSDispatcher, metrics: ServerMetrics
    ) {
        self.database = database
        self.codeKey = SymmetricKey(
            data: Array(
                HMAC<SHA256>.authenticationCode(for: Array("phone-codes".utf8), using: SymmetricKey(data: pepper))))
        self.clock = clock
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.metrics = metrics
    }

    /// Stores a verification for `phone` and `purpose` and sends its code where it can be used.
    /// `sessionUserId`: the signed-in user asking, if any (a `change-phone` code goes only to them).
    package func request(phone: PhoneNumber, purpose: VerificationPurpose, sessionUserId: String?) async throws
        -> PhoneVerificationResponse
    {
        let now = clock.nowMillis()
        try await spendCountryBudget(phone: phone, now: now)
        let holder = try await database.read { sql in try await sql.users.find(phone: phone.value) }
        let code = Self.newCode()
        let id = Identifier.make("pv")
        // Who the code is for, and whether it goes out: nil sends nothing (the code then matches nothing).
        let recipient: (userId: String?, message: String)?
        switch purpose {
        case .signup:
            if let holder, holder.phoneVerifiedAt != nil {
                // The number is someone's: they are told, and nobody gets a code to take it.
                dispatcher.enqueue(to: phone.value, body: Self.signupWarning, kind: "notice.signup_attempt")
                recipient = nil
            } else {
                // Free, or held by an account that never proved it: whoever proves it may have it.
                recipient = (nil, Self.message(code, purpose))
            }
        case .login, .bindDevice, .recover:
            recipient = holder.map { ($0.id, Self.message(code, purpose)) }
        case .changePhone:
            if let sessionUserId, holder?.id == sessionUserId {
                // The step-up's code, to the account's own number.
                recipient = (sessionUserId, Self.message(code, purpose))
            } else if let sessionUserId, holder?.phoneVerifiedAt == nil {
                recipient = (sessionUserId, Self.message(code, purpose))
            } else {
                recipient = nil
            }
        }
        let codeHash =
            recipient == nil ? Base64URL.encode(SecureRandom.bytes(32)) : hash(verificationId: id, code: code)
        try await database.transaction { sql in
            try await sql.phoneVerifications.insert(
                id: id, phone: phone.value, purpose: purpose.rawValue, userId: recipient?.userId ?? holder?.id,
                codeHash: codeHash, now: now, expiresAt: now + Self.lifetimeMillis)
        }
        if let recipient {
            dispatcher.enqueue(to: phone.value, body: recipient.message, kind: "code.\(purpose.rawValue)")
        }
        return PhoneVerificationResponse(
            verificationId: id, expiresIn: Int(Self.lifetimeMillis / 1000),
            resendAfter: Int(configuration.rateLimits.limits[.smsResend]?.seconds ?? 30))
    }

    /// Counts a try at `code` and compares it: the verification's number (and account) when it is
    /// the code sent for `purpose`. 401 `invalid_code` when it is not (the try stays counted), 401
    /// `code_expired` when the verification is unknown, spent, expired, out of tries or for another
    /// purpose. Spend it with `consume` in the operation's transaction.
    package func prove(verificationId: String, code: String, purpose: VerificationPurpose) async throws(APIError)
        -> ProvenCode
    {
        guard verificationId.utf8.count <= 64, !verificationId.isEmpty else { throw Self.expired }
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw APIError(.invalidCode, "The code is the 6 digits the SMS carried.")
        }
        let now = clock.nowMillis()
        let found: PhoneVerificationTry?
        do {
            found = try await database.transaction { sql in
                try await sql.phoneVerifications.countTry(id: verificationId, now: now, maxTries: Self.maxTries)
            }
        } catch {
            throw APIError(.databaseUnavailable, "The store could not be reached; try again.")
        }
        guard let found, found.purpose == purpose.rawValue else {
            metrics.codeCheck(purpose: purpose.rawValue, outcome: ErrorCode.codeExpired.rawValue)
            throw Self.expired
        }
        let expected = Array(found.codeHash.utf8)
        guard ConstantTime.equal(Array(hash(verificationId: verificationId, code: code).utf8), expected) else {
            metrics.codeCheck(purpose: purpose.rawValue, outcome: ErrorCode.invalidCode.rawValue)
            throw APIError(.invalidCode, "That is not the code we sent. Check the SMS, or ask for a new code.")
        }
        metrics.codeCheck(purpose: purpose.rawValue, outcome: "accepted")
        return ProvenCode(verificationId: verificationId, phone: found.phone, userId: found.userId)
    }

    /// Spends a proven code inside the caller's transaction: 401 `code_expired` if a concurrent
    /// request spent it first.
    package func consume(_ proven: ProvenCode, now: Int64, on sql: any SQLExecutor) async throws {
        guard try await sql.phoneVerifications.consume(id: proven.verificationId, now: now) else { throw Self.expired }
    }

    /// Sends a security notice to `phone` (never a secret in it).
    package func notify(_ phone: String, _ body: String, kind: String) {
        dispatcher.enqueue(to: phone, body: body, kind: "notice.\(kind)")
    }

    static let expired = APIError(.codeExpired, "That code has expired or was used already; ask for a new one.")

    static let signupWarning =
        "Someone tried to open a Countersign account with your number. If it was you, sign in instead. "
        + "If not, you need do nothing: no account was opened."

    /// The code's message, saying what it is for and that nobody should be given it.
    static func message(_ code: String, _ purpose: VerificationPurpose) -> String {
        let what =
            switch purpose {
            case .signup: "to open your Countersign account"
            case .login: "to sign in to Countersign on a new device"
            case .bindDevice: "to add a device key to your Countersign account"
            case .recover: "to reset your Countersign PIN"
            case .changePhone: "to move your Countersign account to a new number"
            }
        return "\(code) is your code \(what). It expires in 10 minutes. Never share it: we will never ask you for it."
    }

    /// Six digits, uniform: 32-bit draws below the largest multiple of a million are kept.
    static func newCode() -> String {
        while true {
            let bytes = SecureRandom.bytes(4)
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard value < 4_294_000_000 else { continue }
            let digits = String(value % 1_000_000)
            return String(repeating: "0", count: 6 - digits.count) + digits
        }
    }

    private func hash(verificationId: String, code: String) -> String {
        Base64URL.encode(
            Array(HMAC<SHA256>.authenticationCode(for: Array("\(verificationId):\(code)".utf8), using: codeKey)))
    }

    /// One message more to the number's calling code this hour, across every process: 429 past the
    /// budget (`sms-country`).
    private func spendCountryBudget(phone: PhoneNumber, now: Int64) async throws {
        let limits = configuration.rateLimits
        guard limits.enabled, let budget = limits.limits[.smsCountry] else { return }
        let window = max(budget.seconds, 1) * 1000
        let start = now - now % window
        let callingCode = phone.callingCode
        let spent = try await database.transaction { sql in
            try await sql.phoneVerifications.spendBudget(
                callingCode: callingCode, hour: start, limit: Int64(budget.count))
        }
        guard spent else {
            metrics.rateLimited(route: "sms-country")
            throw APIError(
                .rateLimited, "Too many codes sent to this country just now. Try again later.",
                retryAfter: Int((start + window - now + 999) / 1000))
        }
    }
}

/// A code that checked out: the number it was sent to, and the account it was sent for if any.
package struct ProvenCode: Sendable, Equatable {
    package let verificationId: String
    package let phone: String
    package let userId: String?
}
