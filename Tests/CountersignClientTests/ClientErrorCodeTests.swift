import CountersignAPI
import CountersignClient
import Foundation
import Testing

@Suite("API client error codes")
struct ClientErrorCodeTests {
    @Test("a known code is typed in both error shapes; an unknown one still decodes, as a string with no ErrorCode")
    func typedAndUnknownCodes() async throws {
        let transport = ScriptedTransport()
        transport.expect(
            "GET", "/transfers/tr_1", status: 409, json: #"{"error":{"code":"quote_expired","message":"Expired."}}"#)
        transport.expect(
            "POST", "/biometric/auth/verify", status: 401,
            json: #"{"verified":false,"message":"No.","code":"bad_signature"}"#)
        transport.expect(
            "GET", "/transfers/tr_2", status: 409, json: #"{"error":{"code":"from_a_newer_server","message":"New."}}"#)
        let client = Fixture.client(transport)
        let expired = await #expect(throws: CountersignClientError.self) { try await client.transfer(id: "tr_1") }
        #expect(expired?.errorCode == .quoteExpired)
        let refused = await #expect(throws: CountersignClientError.self) {
            try await client.verifyAuthentication(Fixture.assertion)
        }
        #expect(refused?.errorCode == .badSignature)
        let newer = await #expect(throws: CountersignClientError.self) { try await client.transfer(id: "tr_2") }
        #expect(newer == .api(status: 409, code: "from_a_newer_server", message: "New.", retryAfter: nil))
        #expect(newer?.errorCode == nil)
        #expect(CountersignClientError.transport("offline").errorCode == nil)
        transport.verifyAllUsed()
    }

    @Test("the server's trace id reaches the error in both error shapes, and is nil when the server sent none")
    func traceIdentifier() async throws {
        let transport = ScriptedTransport()
        let id = "4bf92f3577b34da6a3ce929d0e0e4736"
        transport.expect(
            "GET", "/transfers/tr_1", status: 409,
            json: #"{"error":{"code":"quote_expired","message":"Expired.","traceId":"\#(id)"}}"#)
        transport.expect(
            "POST", "/biometric/auth/verify", status: 401,
            json: #"{"verified":false,"message":"No.","code":"bad_signature","traceId":"\#(id)"}"#)
        transport.expect(
            "GET", "/transfers/tr_2", status: 409, json: #"{"error":{"code":"quote_expired","message":"x"}}"#)
        let client = Fixture.client(transport)
        let general = await #expect(throws: CountersignClientError.self) { try await client.transfer(id: "tr_1") }
        #expect(general?.traceId == id)
        let flat = await #expect(throws: CountersignClientError.self) {
            try await client.verifyAuthentication(Fixture.assertion)
        }
        #expect(flat?.traceId == id)
        let none = await #expect(throws: CountersignClientError.self) { try await client.transfer(id: "tr_2") }
        #expect(none?.traceId == nil && none?.errorCode == .quoteExpired)
        transport.verifyAllUsed()
    }

    @Test("ErrorResponse decodes any code and encodes an ErrorCode as its wire string")
    func errorResponseWire() throws {
        let body = ErrorResponse(error: .init(code: .orderPaid, message: "Paid.", retryAfter: nil))
        let json = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        #expect(json.contains(#""code":"order_paid""#))
        let unknown = try JSONDecoder().decode(
            ErrorResponse.self, from: Data(#"{"error":{"code":"later_code","message":"x"}}"#.utf8))
        #expect(unknown.error.code == "later_code" && unknown.error.errorCode == nil)
        #expect(try JSONDecoder().decode(ErrorResponse.self, from: Data(json.utf8)).error.errorCode == .orderPaid)
    }
}
