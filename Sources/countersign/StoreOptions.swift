import ArgumentParser
import CountersignCore
import CountersignServer
import Foundation

/// The flags every command that touches the store shares.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Data directory: the SQLite file and generated secrets (env COUNTERSIGN_DATA_DIR).")
    var dataDirectory: String?

    @Option(
        name: .customLong("database-url"),
        help: "postgres://user:password@host:port/database; overrides SQLite (env DATABASE_URL).")
    var databaseURL: String?

    @Option(
        name: .customLong("phone-region"),
        help: "How numbers without a country code are read: NG (default), NL or BE (env COUNTERSIGN_PHONE_REGION).")
    var phoneRegion: String?

    func validate() throws {
        if let code = phoneRegion ?? ProcessInfo.processInfo.environment["COUNTERSIGN_PHONE_REGION"],
            PhoneRegion(code: code) == nil
        {
            throw ValidationError(
                "--phone-region must be one of \(PhoneRegion.known.map(\.code).joined(separator: ", "))")
        }
    }

    /// A configuration with these flags (then environment, then defaults) applied.
    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        apply(to: &configuration)
        return configuration
    }

    /// Applies flags, then environment, then defaults to `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        let environment = ProcessInfo.processInfo.environment
        if let directory = dataDirectory ?? environment["COUNTERSIGN_DATA_DIR"] {
            configuration.dataDirectory = directory
        }
        if let url = databaseURL ?? environment["DATABASE_URL"], !url.isEmpty { configuration.databaseURL = url }
        if let secret = environment["COUNTERSIGN_TOKEN_SECRET"] { configuration.tokenSecret = Array(secret.utf8) }
        if let pepper = environment["COUNTERSIGN_PIN_PEPPER"] { configuration.pinPepper = Array(pepper.utf8) }
        if let secret = environment["COUNTERSIGN_PAYMENT_WEBHOOK_SECRET"] {
            configuration.paymentWebhookSecret = Array(secret.utf8)
        }
        if let region = (phoneRegion ?? environment["COUNTERSIGN_PHONE_REGION"]).flatMap(PhoneRegion.init(code:)) {
            configuration.phoneRegion = region
        }
    }
}
