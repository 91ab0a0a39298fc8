import CountersignCodec
import CountersignCore
import Testing

/// The canonical forms and challenges in `Tests/Fixtures/canonical-json.json`, which the web page's
/// recomputation (`countersign.js`, under `node --test`) is held to as well: a change to either
/// side's encoding fails here or there, not in a user's browser.
@Suite("Canonical JSON vectors")
struct CanonicalVectorTests {
    struct Vector<Signed: Decodable & Sendable>: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var signed: Signed
        var nonce: String
        var canonical: String
        var challenge: String
        var testDescription: String { name }
    }

    struct Vectors: Decodable, Sendable {
        var paymentIntents: [Vector<PaymentIntent>]
        var transferQuotes: [Vector<TransferQuote>]
    }

    static func load() throws -> Vectors {
        try Fixtures.decode(Vectors.self, from: "canonical-json.json")
    }

    @Test("the file holds intents and quotes")
    func fileIsThere() throws {
        let vectors = try Self.load()
        #expect(vectors.paymentIntents.count >= 5)
        #expect(vectors.transferQuotes.count >= 3)
    }

    @Test("payment intents: canonical bytes and challenge", arguments: try load().paymentIntents)
    func intent(vector: Vector<PaymentIntent>) throws {
        #expect(vector.signed.canonicalBytes == Array(vector.canonical.utf8))
        let nonce = try #require(Base64URL.decode(vector.nonce))
        #expect(Base64URL.encode(vector.signed.challenge(nonce: nonce)) == vector.challenge)
    }

    @Test("transfer quotes: canonical bytes and challenge", arguments: try load().transferQuotes)
    func quote(vector: Vector<TransferQuote>) throws {
        #expect(vector.signed.canonicalBytes == Array(vector.canonical.utf8))
        let nonce = try #require(Base64URL.decode(vector.nonce))
        #expect(Base64URL.encode(vector.signed.challenge(nonce: nonce)) == vector.challenge)
    }
}
