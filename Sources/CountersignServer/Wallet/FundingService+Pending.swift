import CountersignAPI
import CountersignCore

extension FundingService {
    /// Fundings left pending since before `updatedBefore` (a payer who never came back, a webhook
    /// that never arrived, a process that stopped before the intent was made), oldest first.
    package func pendingFundings(updatedBefore: Int64) async throws -> [Funding] {
        return try await database.read { sql in try await sql.fundings.pending(updatedBefore: updatedBefore) }
    }

    /// Asks the provider about one pending funding and applies its answer; one that has waited for
    /// its payer longer than `abandonAfterMillis` has its intent canceled (unless it succeeded
    /// meanwhile), so nothing stays pending for ever.
    package func settlePending(_ funding: Funding) async throws {
        let now = try await refresh(funding)
        guard now.status == FundingStatus.pending.rawValue,
            funding.createdAt < clock.nowMillis() - Self.abandonAfterMillis
        else { return }
        guard let current = try await database.read({ sql in try await sql.fundings.find(id: funding.id) }),
            current.status == .pending, let intentId = current.paymentIntentId
        else { return }
        do {
            try await settle(current, intent: try await provider.cancelPaymentIntent(id: intentId), failure: nil)
        } catch is ProviderError {
            // The provider would not cancel: most often the payer finished meanwhile.
            _ = try await refresh(current)
        }
    }

    /// Whether a provider's event is about a funding (its metadata names one where an order's id
    /// would be); if so, the funding is refreshed from the provider under the same guards as a poll.
    /// Events about unknown fundings, or another intent than the funding's, are acknowledged and
    /// ignored.
    package func handleWebhook(_ event: PaymentWebhookEvent) async throws -> Bool {
        guard let id = event.data.object.metadata?.orderId, id.hasPrefix(Self.idPrefix + "_") else { return false }
        guard event.type.hasPrefix("payment_intent."), id.utf8.count <= 64, !ControlCharacters.appear(in: id)
        else { return true }
        guard let funding = try await database.read({ sql in try await sql.fundings.find(id: id) }) else {
            return true
        }
        if let current = funding.paymentIntentId, current != event.data.object.id { return true }
        _ = try await refresh(funding)
        return true
    }
}
