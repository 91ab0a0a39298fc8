import CountersignAPI

extension MarketplaceService {
    /// Saves a card for the user with the payment provider.
    package func addCard(userId: String, _ request: AddCardRequest) async throws -> SavedCardResponse {
        Self.response(
            try await providerCall {
                try await provider.addCard(
                    customerId: userId, number: request.number, expMonth: request.expMonth, expYear: request.expYear)
            })
    }

    /// The user's saved cards.
    package func cards(userId: String) async throws -> SavedCardList {
        SavedCardList(
            cards: try await providerCall { try await provider.listCards(customerId: userId) }.map(Self.response))
    }

    /// Runs a provider call, turning its refusals into API errors with the same code.
    func providerCall<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let refused as ProviderError {
            throw APIError(refused.code, refused.message)
        }
    }

    static func response(_ card: SavedCard) -> SavedCardResponse {
        SavedCardResponse(
            id: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear)
    }
}
