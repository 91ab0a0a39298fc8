import WebAuthn

/// The verdict on one ceremony of a test vector, next to the verdict the vector expects.
public struct VectorOutcome: Sendable, CustomStringConvertible {
    /// The vector's name.
    public let name: String
    /// `registration` or `authentication`.
    public let ceremony: String
    /// The expected verdict: `valid` or `invalid`.
    public let expected: String
    /// The verifier's verdict: `valid` or `invalid`.
    public let got: String
    /// Why: the verifier's error, or what differed from the expectation.
    public let reason: String
    /// The verifier's error code when it refused the ceremony.
    public let errorCode: WebAuthnError.Code?
    /// Whether the verdict, and for valid ceremonies the reported details (sign count, format), are as expected.
    public var matches: Bool

    /// Creates an outcome.
    public init(
        name: String, ceremony: String, expected: String, got: String, reason: String,
        errorCode: WebAuthnError.Code? = nil, matches: Bool? = nil
    ) {
        self.name = name
        self.ceremony = ceremony
        self.expected = expected
        self.got = got
        self.reason = reason
        self.errorCode = errorCode
        self.matches = matches ?? (expected == got)
    }

    /// One line: `ok|MISMATCH name ceremony expected=… got=… (reason)`.
    public var description: String {
        "\(matches ? "ok      " : "MISMATCH") \(name) \(ceremony) expected=\(expected) got=\(got)"
            + (reason.isEmpty ? "" : " (\(reason))")
    }
}
