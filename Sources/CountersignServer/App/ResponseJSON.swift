import CountersignAPI
import CountersignCodec
import CountersignCore

// The answers every payment makes, written straight to JSON (`JSONWritable`): the bytes
// `JSONEncoder` writes for the same value with sorted keys, as `AppResponseEncoder` sets it. A test
// holds each type to that. `AppResponseEncoder` uses this in place of the encoder when a value
// offers it.

extension JSONWritable {
    /// The value's JSON text as `JSONEncoder` writes it.
    package func jsonBytes() -> [UInt8] {
        jsonBytes(escaping: .foundation)
    }
}

extension AuthenticationOptionsResponse: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.objects("allowCredentials", allowCredentials)
        object.string("challenge", challenge)
        object.string("nonce", nonce)
        object.bool("pinAllowed", pinAllowed)
        object.string("rpId", rpId)
        object.object("securePaymentConfirmation", securePaymentConfirmation)
        object.integer("timeout", timeout)
        object.object("transaction", transaction)
        object.string("userVerification", userVerification)
    }
}

extension AuthenticationVerifyResponse: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("code", code)
        object.integer("expiresIn", expiresIn)
        object.string("message", message)
        object.integer("retryAfter", retryAfter)
        object.string("verificationToken", verificationToken)
        object.bool("verified", verified)
    }
}

extension CredentialDescriptor: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("id", id)
        object.strings("transports", transports)
        object.string("type", type)
    }
}

extension SecurePaymentConfirmationData: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("challenge", challenge)
        object.strings("credentialIds", credentialIds)
        object.object("instrument", instrument)
        object.string("payeeName", payeeName)
        object.string("payeeOrigin", payeeOrigin)
        object.string("rpId", rpId)
        object.integer("timeout", timeout)
        object.object("total", total)
    }
}

extension PaymentCredentialInstrument: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("displayName", displayName)
        object.string("icon", icon)
    }
}

extension PaymentCurrencyAmount: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("currency", currency)
        object.string("value", value)
    }
}

// The top-up's answer, stored for replays and sent as stored. `JSONEncoder` without sorted keys
// wrote the members in an order that changed from one run of the server to the next; sorted, a
// replay and a fresh answer for the same value are the same text.

extension TopUpResponse: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.string("code", code)
        object.object("data", data)
        object.string("message", message)
        object.bool("success", success)
    }
}

extension TopUpResponse.Data: JSONWritable {
    package func write(to object: inout JSONObjectWriter) {
        object.integer("amount", amount)
        object.integer("balance", balance)
        object.integer("cashbackEarned", cashbackEarned)
        object.integer("cashbackUsed", cashbackUsed)
        object.string("status", status)
        object.string("timestamp", timestamp)
        object.string("transactionId", transactionId)
    }
}
