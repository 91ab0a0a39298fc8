import CountersignAPI
import CountersignClient
import CountersignCore
import Crypto
import Testing
import WebAuthn

/// What a browser writes into the `payment` member of a `payment.get` clientDataJSON after showing a
/// Secure Payment Confirmation; starts as exactly what the server issued, and a test may alter it.
struct ShownPayment {
    var type = "payment.get"
    var rpId: String
    var topOrigin = LiveServer.origin
    var payeeName: String?
    var payeeOrigin: String?
    var value: String
    var currency: String
    var displayName: String
    var icon: String

    init(_ issued: SecurePaymentConfirmationData) {
        rpId = issued.rpId
        payeeName = issued.payeeName
        payeeOrigin = issued.payeeOrigin
        value = issued.total.value
        currency = issued.total.currency
        displayName = issued.instrument.displayName
        icon = issued.instrument.icon
    }

    /// clientDataJSON in Chromium's member order (content/browser/webauth/client_data_json.cc).
    func clientDataJSON(challenge: String, origin: String = LiveServer.origin) -> [UInt8] {
        let q = CanonicalJSON.quote
        var payment = "\"rpId\":\(q(rpId)),\"topOrigin\":\(q(topOrigin))"
        if let payeeName { payment += ",\"payeeName\":\(q(payeeName))" }
        if let payeeOrigin { payment += ",\"payeeOrigin\":\(q(payeeOrigin))" }
        payment +=
            ",\"total\":{\"value\":\(q(value)),\"currency\":\(q(currency))},\"instrument\":{\"icon\":\(q(icon)),\"displayName\":\(q(displayName))}"
        return Array(
            "{\"type\":\(q(type)),\"challenge\":\(q(challenge)),\"origin\":\(q(origin)),\"crossOrigin\":false,\"payment\":{\(payment)}}"
                .utf8)
    }

    /// The AuthenticationResponseJSON a browser returns in `PaymentResponse.details`, signed by `device`.
    func assertion(_ device: DeviceAuthenticator, challenge: String) throws -> AuthenticationResponseJSON {
        // Moves the device's counter on, so this assertion's count is one it never uses again.
        let count = device.makeAssertion(challenge: []).authenticatorData.suffix(4).reduce(UInt32(0)) {
            $0 << 8 | UInt32($1)
        }
        let client = clientDataJSON(challenge: challenge)
        let authData =
            Array(SHA256.hash(data: Array(device.rpId.utf8))) + [0x05]
            + withUnsafeBytes(of: count.bigEndian, Array.init)
        let signature = Array(
            try device.privateKey.signature(for: authData + SHA256.hash(data: client)).derRepresentation)
        return AuthenticationResponseJSON(
            id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
            response: .init(
                clientDataJSON: Base64URL.encode(client), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature))
        )
    }
}
