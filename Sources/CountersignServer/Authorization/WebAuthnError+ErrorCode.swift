import CountersignAPI
import WebAuthn

extension ErrorCode {
    /// The code a WebAuthn refusal is sent with: the verifier's own, which `ErrorCode` lists under the
    /// same raw value (the SDK sees `ErrorCode` without the verifier). Every one is there
    /// (`ErrorCodeTests.webAuthnCodesKeepTheirNames`); one added to the verifier and not yet listed
    /// is sent as a failed authorization rather than trapping.
    init(_ code: WebAuthnError.Code) {
        self = ErrorCode(rawValue: code.rawValue) ?? .authorizationFailed
    }
}

extension APIError {
    /// A WebAuthn refusal under its own code, with the verifier's message or `message` where that
    /// would tell an attacker which check failed.
    init(_ refusal: WebAuthnError, message: String? = nil) {
        self.init(ErrorCode(refusal.code), message ?? refusal.message)
    }
}
