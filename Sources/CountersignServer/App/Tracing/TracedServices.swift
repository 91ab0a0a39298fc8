import CountersignCore
import CountersignStore
import Tracing

/// The store with a client span around every transaction, read and statement, under the request's
/// span. A statement's span records the engine and the SQL text; the values are bound parameters and
/// never recorded. Used only when traces are exported, and only inside a trace: the workers' polls
/// and the migrations run untraced, so they do not start a trace every second.
struct TracedDatabase: Database {
    let base: any Database

    var engine: DatabaseEngine { base.engine }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        guard ServiceContext.current != nil else { return try await base.transaction(body) }
        return try await withSpan("db.transaction", ofKind: .client) { span in
            span.attributes["db.system.name"] = systemName
            return try await base.transaction { sql in try await body(TracedExecutor(base: sql, systemName: systemName))
            }
        }
    }

    func single<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        guard ServiceContext.current != nil else { return try await base.single(body) }
        return try await withSpan("db.transaction", ofKind: .client) { span in
            span.attributes["db.system.name"] = systemName
            return try await base.single { sql in try await body(TracedExecutor(base: sql, systemName: systemName)) }
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        guard ServiceContext.current != nil else { return try await base.read(body) }
        return try await withSpan("db.read", ofKind: .client) { span in
            span.attributes["db.system.name"] = systemName
            return try await base.read { sql in try await body(TracedExecutor(base: sql, systemName: systemName)) }
        }
    }

    func listen(channel: String, onNotification: @escaping @Sendable (String) -> Void) async throws {
        try await base.listen(channel: channel, onNotification: onNotification)
    }

    func notify(channel: String, payload: String, on sql: any SQLExecutor) async throws {
        let sql = (sql as? TracedExecutor)?.base ?? sql
        try await base.notify(channel: channel, payload: payload, on: sql)
    }

    func run() async throws { try await base.run() }

    private var systemName: String { engine == .postgres ? "postgresql" : "sqlite" }
}

/// One span per statement.
struct TracedExecutor: SQLExecutor {
    let base: any SQLExecutor
    let systemName: String

    var engine: DatabaseEngine { base.engine }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let operation = sql.prefix { !$0.isWhitespace }.uppercased()
        return try await withSpan("db.\(operation.isEmpty ? "statement" : operation)", ofKind: .client) { span in
            span.attributes["db.system.name"] = systemName
            span.attributes["db.query.text"] = sql
            return try await base.query(sql, binds)
        }
    }
}

/// The airtime supplier with a client span around each call: the order's network and amount, never
/// the recipient's number.
struct TracedAirtimeSupplier: AirtimeSupplier {
    let base: any AirtimeSupplier

    func purchase(_ order: AirtimeOrder) async throws -> AirtimeOutcome {
        try await withSpan("supplier.purchase", ofKind: .client) { span in
            span.attributes["countersign.transaction_id"] = order.transactionId
            span.attributes["countersign.network"] = order.network.rawValue
            return try await base.purchase(order)
        }
    }

    func outcome(ofTransaction transactionId: String, order: AirtimeOrder) async throws -> AirtimeOutcome? {
        try await withSpan("supplier.outcome", ofKind: .client) { span in
            span.attributes["countersign.transaction_id"] = transactionId
            return try await base.outcome(ofTransaction: transactionId, order: order)
        }
    }
}

/// The payment provider with a client span around each call; card numbers are never recorded.
struct TracedPaymentProvider: PaymentProvider {
    let base: any PaymentProvider

    func createPaymentIntent(
        amount: Int64, currency: String, method: PaymentMethodKind, paymentMethodId: String?, customerId: String?,
        orderId: String, returnURL: String?, idempotencyKey: String
    ) async throws -> ProviderPaymentIntent {
        try await withSpan("payments.create_intent", ofKind: .client) { span in
            span.attributes["countersign.order_id"] = orderId
            span.attributes["countersign.payment_method"] = method.rawValue
            return try await base.createPaymentIntent(
                amount: amount, currency: currency, method: method, paymentMethodId: paymentMethodId,
                customerId: customerId, orderId: orderId, returnURL: returnURL, idempotencyKey: idempotencyKey)
        }
    }

    func retrievePaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        try await withSpan("payments.retrieve_intent", ofKind: .client) { _ in
            try await base.retrievePaymentIntent(id: id)
        }
    }

    func cancelPaymentIntent(id: String) async throws -> ProviderPaymentIntent {
        try await withSpan("payments.cancel_intent", ofKind: .client) { _ in try await base.cancelPaymentIntent(id: id)
        }
    }

    func addCard(customerId: String, number: String, expMonth: Int, expYear: Int) async throws -> SavedCard {
        try await withSpan("payments.add_card", ofKind: .client) { _ in
            try await base.addCard(customerId: customerId, number: number, expMonth: expMonth, expYear: expYear)
        }
    }

    func listCards(customerId: String) async throws -> [SavedCard] {
        try await withSpan("payments.list_cards", ofKind: .client) { _ in
            try await base.listCards(customerId: customerId)
        }
    }

    func createRefund(paymentIntentId: String, amount: Int64, idempotencyKey: String) async throws -> ProviderRefund {
        try await withSpan("payments.create_refund", ofKind: .client) { _ in
            try await base.createRefund(
                paymentIntentId: paymentIntentId, amount: amount, idempotencyKey: idempotencyKey)
        }
    }

    func retrieveRefund(id: String) async throws -> ProviderRefund {
        try await withSpan("payments.retrieve_refund", ofKind: .client) { _ in try await base.retrieveRefund(id: id) }
    }

    func requiresReturnURL(_ method: PaymentMethodKind) -> Bool { base.requiresReturnURL(method) }
}
