import CountersignAPI
import CountersignCore
import CountersignServer
import Foundation
import NIOCore

/// The Swift type each operation's JSON answer is written from, so that `ResponseContract` holds
/// openapi.yaml to every member the type declares, not only to the ones a body carries (`JSONEncoder`
/// leaves out a nil optional): the body is decoded as its type and written again by `ShadowEncoder`,
/// every declared member included. Outside the application: the server keeps no hook for it.
///
/// A new operation answering JSON is listed here (or in `unlisted`, with the reason);
/// `ContractCheckTests.everyJSONOperationHasItsType` fails until it is.
enum ResponseTypes {
    /// The body of a 1xx–3xx answer, by "METHOD template".
    static let success: [String: any Codable.Type] = [
        "GET /account/security": AccountSecurityResponse.self,
        "POST /account/phone": AccountSecurityResponse.self,
        "GET /account/devices": RememberedDeviceList.self,
        "GET /account/activity": AccountActivity.self,
        "POST /auth/phone/verifications": PhoneVerificationResponse.self,
        "POST /auth/signup": SessionResponse.self,
        "POST /auth/login": SessionResponse.self,
        "POST /auth/pin/reset": SessionResponse.self,
        "POST /auth/passkey/options": PasskeySignInOptionsResponse.self,
        "POST /auth/passkey/verify": SessionResponse.self,
        "GET /health/live": LivenessResponse.self,
        "POST /biometric/register/options": RegistrationOptionsResponse.self,
        "POST /biometric/register/verify": RegistrationVerifyResponse.self,
        "POST /biometric/step-up/options": StepUpOptionsResponse.self,
        "GET /biometric/credentials": CredentialList.self,
        "GET /biometric/auth/options": AuthenticationOptionsResponse.self,
        "POST /biometric/auth/options": AuthenticationOptionsResponse.self,
        "POST /biometric/auth/verify": AuthenticationVerifyResponse.self,
        "GET /user/limits": LimitsResponse.self,
        "PUT /user/limits": LimitsResponse.self,
        "GET /user/profile": ProfileResponse.self,
        "PUT /user/merchant": ProfileResponse.self,
        "POST /user/addresses": AddressBody.self,
        "POST /products": ProductResponse.self,
        "GET /products": ProductList.self,
        "GET /products/{id}/bids": BidList.self,
        "GET /user/bids": BidList.self,
        "GET /user/orders": OrderList.self,
        "GET /products/{id}": ProductResponse.self,
        "POST /products/{id}/bids": BidResponse.self,
        "POST /products/{id}/buy-now": BidResponse.self,
        "GET /bids/{id}": BidResponse.self,
        "POST /bids/{id}/accept": BidResponse.self,
        "POST /bids/{id}/decline": BidResponse.self,
        "POST /bids/{id}/withdraw": BidResponse.self,
        "GET /bids/{id}/order": OrderResponse.self,
        "POST /checkout/totals": CheckoutTotals.self,
        "POST /orders": OrderResponse.self,
        "GET /orders/{id}": OrderResponse.self,
        "POST /orders/{id}/pay": OrderPaymentResponse.self,
        "POST /orders/{id}/pay/options": AuthenticationOptionsResponse.self,
        "GET /orders/{id}/payment": OrderPaymentResponse.self,
        "POST /orders/{id}/payment/cancel": OrderPaymentResponse.self,
        "POST /orders/{id}/ship": OrderResponse.self,
        "POST /orders/{id}/complete": OrderResponse.self,
        "POST /orders/{id}/refunds": RefundResponse.self,
        "GET /orders/{id}/refunds": RefundList.self,
        "GET /user/proceeds": ProceedsResponse.self,
        "POST /payment-methods/cards": SavedCardResponse.self,
        "GET /payment-methods/cards": SavedCardList.self,
        "GET /sim/sms": SimulatedSMSList.self,
        "GET /operator/overview": OperatorOverview.self,
        "GET /operator/actions": OperatorActionList.self,
        "POST /operator/audit": OperatorAuditRun.self,
        "GET /operator/users": OperatorUserList.self,
        "GET /operator/users/{userId}": OperatorUserDetail.self,
        "POST /operator/users/{userId}/unlock": OperatorUserDetail.self,
        "POST /operator/users/{userId}/keys/{credentialId}/revoke": OperatorUserDetail.self,
        "POST /operator/users/{userId}/fund": OperatorFunding.self,
        "POST /operator/orders/{id}/refunds": RefundResponse.self,
        "POST /operator/transfers/{id}/reverse": OperatorReversal.self,
        "POST /operator/fundings/{id}/reverse": OperatorReversal.self,
        "PUT /operator/users/{userId}/tier": OperatorUserDetail.self,
        "POST /operator/webhooks": WebhookEndpointCreated.self,
        "GET /operator/webhooks": WebhookEndpointList.self,
        "GET /operator/webhooks/{endpointId}/deliveries": WebhookDeliveryLog.self,
        "POST /operator/webhooks/{endpointId}/enable": WebhookEndpointSummary.self,
        "POST /sim/refunds/{refundId}/succeed": SimulatedRefund.self,
        "POST /sim/refunds/{refundId}/fail": SimulatedRefund.self,
        "POST /transfers": TransferDocument.self,
        "GET /transfers/{id}": TransferDocument.self,
        "POST /transfers/{id}/authorization": TransferDocument.self,
        "POST /transfers/{id}/decline": TransferDocument.self,
        "POST /transfers/{id}/cancel": TransferDocument.self,
        "POST /wallet/fundings": WalletFunding.self,
        "GET /wallet/fundings/{id}": WalletFunding.self,
        "POST /user/topup": TopUpResponse.self,
        "GET /user/wallet": WalletResponse.self,
        "GET /user/transactions": TransactionPage.self,
    ]

    /// Operations answering JSON that no Swift type writes: the bytes alone are checked.
    static let unlisted: [String: String] = [
        "GET /health": "a literal written in SystemController.health",
        "GET /health/ready": "a dictionary built in SystemController.ready",
        "POST /webhooks/payments": "a literal acknowledgement in PaymentWebhookController",
    ]

    /// What `body`, answered with `status` to `method template`, was written from, as `ShadowEncoder`
    /// writes it; nil when no type is known. An error body is an `ErrorResponse`.
    static func shadow(method: String, template: String, status: Int, body: ByteBuffer) -> ShadowRecorder.Tree? {
        let data = Data(body.readableBytesView)
        if status >= 400 {
            // A refused passkey sign-in answers its own shape (`verified: false`), not `{"error": …}`.
            guard (try? JSONDecoder().decode(ErrorShape.self, from: data))?.error != nil else { return nil }
            return tree(ErrorResponse.self, data)
        }
        return success["\(method) \(template)"].map { tree($0, data) }
    }

    private struct ErrorShape: Decodable {
        let error: JSONValue?
    }

    private static func tree<Body: Codable>(_ type: Body.Type, _ data: Data) -> ShadowRecorder.Tree {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return ShadowRecorder.tree(of: try decoder.decode(type, from: data))
        } catch {
            return .failure(.init(description: "the body is not a \(Body.self): \(error)"))
        }
    }
}
