import CountersignAPI
import CountersignCore

/// Pays a marketplace order from the buyer's wallet: the order's options, the device's approval and
/// signature over the order's total and seller (checked against the order first), verify, then the
/// order paid with the token; the PIN when the device path cannot finish.
public struct WalletOrderPayment: Sendable {
    private let client: CountersignAPIClient
    private let device: DeviceApproval

    /// A payment flow over `client`, proving presence with `authenticator` and signing with `signer`.
    public init(client: CountersignAPIClient, authenticator: any LocalAuthenticator, signer: any TransactionSigner) {
        self.client = client
        self.device = DeviceApproval(authenticator: authenticator, signer: signer)
    }

    /// What authorizes paying `order`: a verification token, or the PIN `pin` gives when the device
    /// path cannot finish (nil: the buyer gave up, and nil is returned). Where the server said the
    /// PIN alone may not pay this, `AirtimePayment.PasskeyRequired` is thrown instead of asking.
    /// Refusals such as `insufficient_funds` or `limit_exceeded` are thrown.
    public func authorization(
        for order: OrderResponse, pin: @Sendable (AirtimePayment.PINFallbackReason) async -> String?
    ) async throws -> PayOrderRequest? {
        let options: AuthenticationOptionsResponse
        do {
            options = try await client.payOrderOptions(orderId: order.id)
        } catch let error as CountersignClientError where error.errorCode == .noRegisteredCredential {
            return await pin(.noRegisteredCredential).map { PayOrderRequest(pin: $0) }
        } catch let error as CountersignClientError where error.errorCode == .strongAuthenticationRequired {
            // No key, and the PIN alone may not pay this: neither path can finish here.
            throw AirtimePayment.PasskeyRequired(reason: .noRegisteredCredential)
        }
        // The server's description must be this order's: the signer then checks the challenge.
        let shown = options.transaction
        guard shown.kind == "marketplace_order", shown.productCode == order.id, shown.amount == order.totals.total,
            shown.currency == order.totals.currency
        else { throw SigningError.challengeMismatch }
        let reason = "Pay \(Currency.named(shown.currency).format(shown.amount)) for order \(order.id)"
        switch try await AirtimePayment.token(answering: options, reason: reason, client: client, device: device) {
        case .success(let token): return PayOrderRequest(verificationToken: token)
        case .failure(let fallback):
            guard fallback.pinAllowed else { throw AirtimePayment.PasskeyRequired(reason: fallback.reason) }
            return await pin(fallback.reason).map { PayOrderRequest(pin: $0) }
        }
    }
}
