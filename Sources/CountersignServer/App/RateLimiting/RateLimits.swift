/// How many requests of a kind one client address or one account may make in a window, before the
/// server answers 429 with `Retry-After`. On by default; `serve --rate-limit NAME=COUNT/SECONDS`
/// changes one, `--no-rate-limits` turns them off (for a benchmark from one address).
package struct RateLimits: Sendable, Equatable {
    /// One limit: `count` requests per `seconds`.
    package struct Limit: Sendable, Equatable {
        package var count: Int
        package var seconds: Int64
        package init(count: Int, seconds: Int64) {
            self.count = count
            self.seconds = seconds
        }
    }

    /// What is limited, and by what key.
    package enum Bucket: String, Sendable, CaseIterable {
        /// Signups per client address.
        case signupAddress = "signup-address"
        /// Logins per client address, and per phone number (whoever sends them).
        case loginAddress = "login-address"
        case loginPhone = "login-phone"
        /// PIN checks per account: PIN payments and the step-up.
        case pinAccount = "pin-account"
        /// Challenges issued (payment, step-up and registration options), per account and per address.
        case challengeAccount = "challenge-account"
        case challengeAddress = "challenge-address"
        /// Ledger audits asked for from the operator console, per server process.
        case operatorAudit = "operator-audit"
        /// User searches from the operator console, per operator.
        case operatorSearch = "operator-search"
        /// One-time codes by SMS: per number (and, for one purpose, one per `sms-resend` window), per client
        /// address, per signed-in account, and per country calling code (counted in the database,
        /// across every server process: SMS pumping fraud sends codes to costly destinations).
        case smsNumber = "sms-number"
        case smsResend = "sms-resend"
        case smsAddress = "sms-address"
        case smsAccount = "sms-account"
        case smsCountry = "sms-country"
        /// Transfers started per account: each looks a number's holder up.
        case transferAccount = "transfer-account"
    }

    package var enabled = true
    package var limits: [Bucket: Limit] = [
        // A household or an office behind one address still signs up a few people.
        .signupAddress: Limit(count: 20, seconds: 600),
        .loginAddress: Limit(count: 60, seconds: 600),
        // Five wrong PINs lock the PIN anyway; this also spares the hash's CPU.
        .loginPhone: Limit(count: 10, seconds: 600),
        .pinAccount: Limit(count: 20, seconds: 600),
        .challengeAccount: Limit(count: 60, seconds: 60),
        .challengeAddress: Limit(count: 300, seconds: 60),
        // The audit reads every posting: a few a minute is plenty for people.
        .operatorAudit: Limit(count: 5, seconds: 60),
        // A person looks up a few customers; walking number prefixes to list them all needs many.
        .operatorSearch: Limit(count: 30, seconds: 600),
        // A person asks for a code, perhaps again: five an hour is plenty, one every 30 seconds.
        .smsNumber: Limit(count: 5, seconds: 3600),
        .smsResend: Limit(count: 1, seconds: 30),
        .smsAddress: Limit(count: 20, seconds: 3600),
        .smsAccount: Limit(count: 10, seconds: 3600),
        // Per calling code per hour, for the whole service: raise it for a country with many users.
        .smsCountry: Limit(count: 1_000, seconds: 3600),
        // Each transfer names a number's holder (partly): a few an hour is what people send.
        .transferAccount: Limit(count: 30, seconds: 3600),
    ]

    package init() {}

    /// Everything allowed.
    package static let off: RateLimits = {
        var limits = RateLimits()
        limits.enabled = false
        return limits
    }()

    /// Applies `NAME=COUNT/SECONDS`; throws a message naming what is wrong.
    package mutating func apply(_ setting: String) throws(RateLimitSettingError) {
        let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let bucket = Bucket(rawValue: parts[0]) else {
            throw RateLimitSettingError(
                "\(setting): the name must be one of \(Bucket.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let numbers = parts[1].split(separator: "/").map { Int64($0) }
        guard numbers.count == 2, let count = numbers[0], let seconds = numbers[1],
            (1...1_000_000).contains(count), (1...86_400).contains(seconds)
        else { throw RateLimitSettingError("\(setting): write COUNT/SECONDS, 1–1000000 requests per 1–86400 seconds") }
        limits[bucket] = Limit(count: Int(count), seconds: seconds)
    }
}

/// A `--rate-limit` value that cannot be used.
package struct RateLimitSettingError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
