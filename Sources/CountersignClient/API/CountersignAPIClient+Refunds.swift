import CountersignAPI

extension CountersignAPIClient {
    /// `POST /orders/{id}/refunds`: the seller refunds `amount` of a paid order (until it completes).
    /// One `Idempotency-Key` (fresh unless given) covers the SDK's retries: never a second refund.
    public func refundOrder(id: String, _ body: CreateRefundRequest, idempotencyKey: String? = nil) async throws
        -> RefundResponse
    {
        try await create(.createOrderRefund, [id], json: body, idempotencyKey: idempotencyKey)
    }

    /// `GET /orders/{id}/refunds`: the order's refunds, oldest first, for its buyer or seller.
    public func refunds(orderId: String) async throws -> [RefundResponse] {
        try await call(request(.orderRefunds, [orderId]), as: RefundList.self).refunds
    }

    /// `POST /operator/orders/{id}/refunds`: an operator refunds any paid order, with their PIN.
    public func operatorRefundOrder(id: String, _ body: OperatorRefundRequest, idempotencyKey: String? = nil)
        async throws -> RefundResponse
    {
        try await create(.operatorRefundOrder, [id], json: body, idempotencyKey: idempotencyKey)
    }
}

extension CountersignAPIClient {
    /// `POST /operator/transfers/{id}/reverse`: an operator reverses a completed transfer, once.
    public func operatorReverseTransfer(id: String, _ body: OperatorReverseRequest) async throws -> OperatorReversal {
        try await call(request(.operatorReverseTransfer, [id], json: body))
    }

    /// `POST /operator/fundings/{id}/reverse`: an operator reverses a funding (its transaction id), once.
    public func operatorReverseFunding(id: String, _ body: OperatorReverseRequest) async throws -> OperatorReversal {
        try await call(request(.operatorReverseFunding, [id], json: body))
    }
}
