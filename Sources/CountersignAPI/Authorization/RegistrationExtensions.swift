/// WebAuthn client extension inputs of creation options.
public struct RegistrationExtensions: Codable, Sendable, Equatable {
    /// Secure Payment Confirmation's `payment` extension.
    public struct Payment: Codable, Sendable, Equatable {
        /// Marks the passkey usable for Secure Payment Confirmation.
        public var isPayment: Bool
        /// The extension input.
        public init(isPayment: Bool) { self.isPayment = isPayment }
    }
    /// `{isPayment: true}` when the client asked for a payment passkey.
    public var payment: Payment?
    /// Extension inputs.
    public init(payment: Payment? = nil) { self.payment = payment }
}
