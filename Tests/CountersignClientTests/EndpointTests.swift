import CountersignAPI
import Testing

/// `Endpoint.path`: the paths the SDK sends are built from the one template the server registers.
@Suite("Endpoint paths")
struct EndpointTests {
    @Test("parameters fill the template in order, percent-encoded, so a value stays one segment")
    func parameters() {
        #expect(Endpoint.wallet.path() == "/user/wallet")
        #expect(Endpoint.transferEvents.path(["tr_1"]) == "/transfers/tr_1/events")
        #expect(Endpoint.revokeCredential.path(["a/b c?d"]) == "/biometric/credentials/a%2Fb%20c%3Fd")
        #expect(Endpoint.product.path(["é"]) == "/products/%C3%A9")
    }

    @Test("the query is appended percent-encoded; nil values are left out")
    func query() {
        #expect(Endpoint.listTransactions.path(query: [("limit", nil), ("cursor", nil)]) == "/user/transactions")
        #expect(
            Endpoint.authenticationOptionsFromQuery.path(query: [
                ("amount", "500"), ("recipientPhone", "+234 801"), ("supplierSlug", nil),
            ])
                == "/biometric/auth/options?amount=500&recipientPhone=%2B234%20801"
        )
    }
}
