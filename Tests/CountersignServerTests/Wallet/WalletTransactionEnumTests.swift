import CountersignCore
import Testing

/// The history's `type` and `status` are the enums' raw values: openapi.yaml lists exactly their cases.
@Suite("Wallet transaction types and statuses")
struct WalletTransactionEnumTests {
    static func summaryEnum(_ property: String) throws -> [String] {
        let schemas = try #require(
            (try ErrorCodeTests.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let properties = (schemas["TransactionSummary"] as? [String: Any])?["properties"] as? [String: Any]
        return try #require((properties?[property] as? [String: Any])?["enum"] as? [String], "\(property)")
    }

    @Test("TransactionSummary's type enum is exactly WalletTransactionType.allCases")
    func typesMatchTheSpec() throws {
        #expect(try Self.summaryEnum("type") == WalletTransactionType.allCases.map(\.rawValue))
    }

    @Test("TransactionSummary's status enum is exactly WalletTransactionStatus.allCases")
    func statusesMatchTheSpec() throws {
        #expect(try Self.summaryEnum("status") == WalletTransactionStatus.allCases.map(\.rawValue))
    }
}
