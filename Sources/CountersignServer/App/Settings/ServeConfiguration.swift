import Logging

/// What `countersign serve` runs with: the server's configuration and what the command itself
/// needs (logs, traces), built from the settings table by `ServeSettings.resolve`.
package struct ServeConfiguration: Sendable {
    package var server = ServerConfiguration()
    package var logLevel = Logger.Level.info
    /// `auto`: JSON lines unless standard error is a terminal.
    package var logFormat = "auto"
    package var otlpEndpoint: String?

    // Settings that take effect together, checked and combined by `finish`.
    var webRoot: String?
    var noWeb = false
    var verifiedAttestationOnly = false
    var noPinAllowance = false
    var stripeSecretKey: String?
    var stripeSecretKeyFile: String?
    var stripeWebhookSecret: String?
    var stripeWebhookSecretFile: String?
    var stripeAPIBaseURL: String?
    var requireLivePayments = false
    var requireLiveSMS = false

    package init() {}
}
