import CountersignCore
import Testing

/// The networks in `Tests/Fixtures/airtime-networks.json`, which the web app's list (`NETWORKS` in
/// screens/receipt.js, under `node --test`) is held to as well.
@Suite("Airtime networks fixture")
struct AirtimeNetworkFixtureTests {
    struct Network: Decodable, Equatable {
        var productCode: String
        var slug: String
        var name: String
    }

    @Test("the fixture lists every network, in order, with its product code, slug and name")
    func everyNetwork() throws {
        let listed = try Fixtures.decode([Network].self, from: "airtime-networks.json")
        let networks = AirtimeNetwork.allCases.map {
            Network(productCode: $0.productCode, slug: $0.rawValue, name: $0.displayName)
        }
        #expect(listed == networks)
    }
}
