import CountersignAPI
import CountersignCore
import CountersignStore

/// Merchants and addresses, products, bids and server-computed checkout totals.
package struct MarketplaceService: Sendable {
    let database: any Database
    let provider: any PaymentProvider
    let clock: WallClock
    let rates: MarketplaceRates
    /// How long bids and unpaid accepted bids live.
    var timeouts = MarketplaceTimeouts()
    /// Where a payment's redirect may send the payer back.
    let returnURLs: ReturnURLPolicy
    let metrics: ServerMetrics
    /// This process, as refunds' idempotency claims name it.
    let instance: ServerInstance
    /// The passkey's options for an order paid from the wallet.
    let biometric: BiometricService
    /// The token or PIN that authorizes an order paid from the wallet.
    let authorizer: PaymentAuthorizer
    /// The buyer's history lines of orders paid from the wallet and refunds back into it.

    /// The largest price or bid, in minor units (€10 million).
    package static let maximumAmount: Int64 = 1_000_000_000
    /// `maximumAmount` as people read it, in the marketplace's currency, for refusals.
    var largestShown: String { Currency.named(rates.currency).format(Self.maximumAmount) }

    /// The buyer as the payment screen needs them.
    package func profile(userId: String) async throws -> ProfileResponse {
        return try await database.read { sql in
            guard let user = try await sql.users.find(id: userId) else { throw APIError.unauthenticated }
            let addresses = try await sql.marketplace.addresses(userId: userId)
            return ProfileResponse(
                userId: user.id, phone: user.phone, name: user.name,
                isMerchant: try await sql.marketplace.isMerchant(userId: userId),
                addresses: addresses.map(Self.body),
                isOperator: try await sql.operators.isOperator(userId: userId)
            )
        }
    }

    package func setMerchant(userId: String, _ isMerchant: Bool) async throws -> ProfileResponse {
        try await database.transaction { sql in try await sql.marketplace.setMerchant(userId: userId, isMerchant) }
        return try await profile(userId: userId)
    }

    package func addAddress(userId: String, _ body: AddressBody) async throws -> AddressBody {
        // Shown to a seller: no bidi overrides, zero-width or line-breaking characters.
        var body = body
        (body.name, body.line1, body.city, body.postalCode) = (
            DisplayText.sanitized(body.name), DisplayText.sanitized(body.line1), DisplayText.sanitized(body.city),
            DisplayText.sanitized(body.postalCode)
        )
        let fields: [(String, String, ErrorCode)] = [
            ("name", body.name, .invalidName), ("line1", body.line1, .invalidLine1), ("city", body.city, .invalidCity),
            ("postalCode", body.postalCode, .invalidPostalCode),
        ]
        for (field, value, code) in fields {
            guard !value.isEmpty, value.unicodeScalars.count <= 200 else {
                throw APIError(code, "\(field) must be 1 to 200 characters.")
            }
        }
        guard let country = Country(body.country) else {
            throw Country.isWellFormed(body.country)
                ? APIError(.unknownCountry, "\(body.country) is no country's ISO 3166-1 code.")
                : APIError(.invalidCountry, "country must be an ISO 3166-1 alpha-2 code, e.g. NL.")
        }
        let address = Address(
            id: Identifier.make("adr"), userId: userId, name: body.name, line1: body.line1, city: body.city,
            postalCode: body.postalCode, country: country)
        let now = clock.nowMillis()
        try await database.transaction { sql in try await sql.marketplace.insert(address, now: now) }
        return Self.body(address)
    }

    package func createProduct(sellerId: String, _ request: CreateProductRequest) async throws -> ProductResponse {
        // Shown to every buyer: no bidi overrides, zero-width or line-breaking characters.
        var request = request
        request.title = DisplayText.sanitized(request.title)
        guard !request.title.isEmpty, request.title.unicodeScalars.count <= 200 else {
            throw APIError(.invalidTitle, "title must be 1 to 200 characters.")
        }
        guard (1...Self.maximumAmount).contains(request.askingPrice) else {
            throw APIError(
                .invalidAmount,
                "askingPrice must be between 1 and \(Self.maximumAmount) minor units (at most \(largestShown)).")
        }
        guard let shipFrom = Country(request.shipFromCountry) else {
            throw Country.isWellFormed(request.shipFromCountry)
                ? APIError(.unknownCountry, "\(request.shipFromCountry) is no country's ISO 3166-1 code.")
                : APIError(.invalidCountry, "shipFromCountry must be an ISO 3166-1 alpha-2 code.")
        }
        let methods = Array(Set(request.shippingMethods)).sorted()
        if let unknown = methods.first(where: { rates.shippingMethod($0) == nil }) {
            throw APIError(
                .unknownShippingMethod,
                "\(unknown) is not a shipping method here (\(rates.shippingMethods.map(\.id).joined(separator: ", ")))."
            )
        }
        guard request.pickup || !methods.isEmpty else {
            throw APIError(.noDeliveryMethod, "Offer pickup or at least one shipping method.")
        }
        let product = Product(
            id: Identifier.make("prd"), sellerId: sellerId, title: request.title, askingPrice: request.askingPrice,
            currency: rates.currency,
            shipFrom: shipFrom, pickup: request.pickup, shippingMethods: methods
        )
        let now = clock.nowMillis()
        try await database.transaction { sql in try await sql.marketplace.insert(product, now: now) }
        return response(product, available: true)
    }

    package func product(id: String) async throws -> ProductResponse {
        return try await database.read { sql in
            guard id.utf8.count <= 64, let product = try await sql.marketplace.product(id: id) else {
                throw APIError(.productNotFound, "No such product.")
            }
            return response(
                product, available: !(try await sql.marketplace.isHeld(productId: id)),
                sold: try await sql.marketplace.isSold(productId: id))
        }
    }

    func response(_ product: Product, available: Bool, sold: Bool = false) -> ProductResponse {
        var methods = product.pickup ? [ProductResponse.DeliveryMethod(id: "pickup", name: "Pickup")] : []
        methods += product.shippingMethods.compactMap { id in
            rates.shippingMethod(id).map { .init(id: id, name: $0.name) }
        }
        return ProductResponse(
            id: product.id, sellerId: product.sellerId, title: product.title, askingPrice: product.askingPrice,
            currency: product.currency,
            shipFromCountry: product.shipFrom.code, deliveryMethods: methods, available: available, sold: sold
        )
    }

    static func body(_ address: Address) -> AddressBody {
        AddressBody(
            id: address.id, name: address.name, line1: address.line1, city: address.city,
            postalCode: address.postalCode, country: address.country.code)
    }
}
