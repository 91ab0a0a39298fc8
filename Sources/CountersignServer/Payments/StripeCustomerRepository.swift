import CountersignStore

/// Our users' Stripe customers, per mode, in shared SQL. The first mapping recorded for a user
/// stands: a racing second one (the same customer, since both creates used the same idempotency
/// key) is dropped.
package struct StripeCustomerRepository: Sendable {
    let sql: any SQLExecutor

    /// The Stripe customer of `userId` in `mode`, if one was recorded.
    package func customerId(userId: String, mode: StripeConfiguration.Mode) async throws
        -> String?
    {
        try await sql.first(
            "SELECT customer_id FROM stripe_customers WHERE user_id = $1 AND mode = $2",
            [.text(userId), .text(mode.rawValue)])?
            .string("customer_id")
    }

    /// Records `customerId` for `userId` unless one is recorded already; returns the one that stands.
    package func record(
        userId: String, mode: StripeConfiguration.Mode, customerId: String, now: Int64
    ) async throws -> String {
        try await sql.execute(
            "INSERT INTO stripe_customers (user_id, mode, customer_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, mode) DO NOTHING",
            [.text(userId), .text(mode.rawValue), .text(customerId), .integer(now)]
        )
        return try await self.customerId(userId: userId, mode: mode) ?? customerId
    }
}

extension SQLExecutor {
    /// `StripeCustomerRepository` on this connection or transaction.
    package var stripeCustomers: StripeCustomerRepository { StripeCustomerRepository(sql: self) }
}
