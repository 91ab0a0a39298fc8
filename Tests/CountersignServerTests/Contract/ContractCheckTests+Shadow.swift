import CountersignAPI
import CountersignCore
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

/// The shadow half of the contract check: `ShadowEncoder` writes what `JSONEncoder` writes plus a
/// null for each nil optional, and the validator takes such a null as absent except that an
/// undocumented one is still reported. Together they hold openapi.yaml to every member a response
/// type declares, not only to the ones a test happens to set.
extension ContractCheckTests {
    /// Every container an `encode(to:)` can use: keyed, nested keyed and unkeyed, unkeyed with nested
    /// containers, single values, super encoders, two containers writing one object.
    struct Exotic: Encodable {
        enum Keys: String, CodingKey { case id, inner, list, flag, base, superclass, maybe, many }
        enum InnerKeys: String, CodingKey { case depth }
        var maybe: String?

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode("x1", forKey: .id)
            var inner = keyed.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(UInt8(2), forKey: .depth)
            var list = keyed.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1.5)
            try list.encodeNil()
            var pair = list.nestedUnkeyedContainer()
            try pair.encode(true)
            try pair.encode(Currency.ngn)
            var object = list.nestedContainer(keyedBy: InnerKeys.self)
            try object.encode(Int64.max, forKey: .depth)
            try Date(timeIntervalSince1970: 1_700_000_000).encode(to: list.superEncoder())
            var single = keyed.superEncoder(forKey: .base).singleValueContainer()
            try single.encode([3, 4])
            try ["k": Optional<Int>.none].encode(to: keyed.superEncoder())
            try keyed.encodeIfPresent(maybe, forKey: .maybe)
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode([Currency.eur], forKey: .many)
        }
    }

    /// `JSONEncoder`'s tree of `value`, as the contract check decodes a body.
    static func encoded(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
    }

    /// `shadow` without the null members `plain` lacks: what is left must be `plain` exactly.
    static func pruned(_ shadow: JSONValue, like plain: JSONValue) -> JSONValue {
        switch (shadow, plain) {
        case (.object(let members), .object(let others)):
            var kept: [String: JSONValue] = [:]
            for (name, member) in members {
                if let other = others[name] {
                    kept[name] = pruned(member, like: other)
                } else if member != .null {
                    kept[name] = member
                }
            }
            return .object(kept)
        case (.array(let items), .array(let others)) where items.count == others.count:
            return .array(zip(items, others).map { pruned($0, like: $1) })
        default:
            return shadow
        }
    }

    @Test(
        "the shadow tree is JSONEncoder's, custom encode(to:) and every container kind included, plus nil optionals as null"
    )
    func shadowMatchesJSONEncoder() throws {
        let set = Exotic(maybe: "m")
        let setPlain = try Self.encoded(set)
        #expect(try ShadowEncoder.tree(of: set) == setPlain)
        let unset = Exotic(maybe: nil)
        let shadow = try ShadowEncoder.tree(of: unset)
        let unsetPlain = try Self.encoded(unset)
        #expect(Self.pruned(shadow, like: unsetPlain) == unsetPlain)
        #expect(shadow != unsetPlain)
        guard case .object(let members) = shadow else { throw TestFailure("not an object: \(shadow)") }
        #expect(members["maybe"] == .null, "a nil optional member is an explicit null")
        #expect(members["super"] == .object(["k": .null]), "a dictionary's nil value stays null, as JSONEncoder has it")

        // Wire types, with nil optionals at depth.
        let topUp = TopUpResponse(
            success: true, message: "ok",
            data: .init(transactionId: "t1", status: "completed", amount: 100, balance: 900, timestamp: "now"))
        let topUpShadow = try ShadowEncoder.tree(of: topUp)
        let topUpPlain = try Self.encoded(topUp)
        #expect(Self.pruned(topUpShadow, like: topUpPlain) == topUpPlain)
        #expect(
            topUpShadow.description.contains(#""code":null"#)
                && topUpShadow.description.contains(#""cashbackEarned":null"#)
                && !topUpPlain.description.contains("null"),
            "\(topUpShadow)")
        let error = ErrorResponse(error: .init(code: .notFound, message: "gone"))
        #expect(
            try ShadowEncoder.tree(of: error)
                == .object([
                    "error": .object([
                        "code": "not_found", "message": "gone", "retryAfter": .null, "traceId": .null,
                        "available": .null, "limit": .null,
                    ])
                ]))
        #expect(try ShadowEncoder.tree(of: [Optional("a"), nil]) == .array(["a", .null]))
    }

    @Test("with nulls as absent, a documented member may be null, an undocumented one is still reported")
    func nullMeansAbsent() {
        let thing = ["$ref": "#/components/schemas/Thing"]
        let lenient = JSONSchemaValidator(document: Self.document, closedObjects: true, nullMeansAbsent: true)
        let strict = JSONSchemaValidator(document: Self.document, closedObjects: true)
        let nilOptionals: JSONValue = .object([
            "id": "th_abc", "kind": "small", "size": 3, "tags": .null, "when": .null, "either": .null,
        ])
        #expect(lenient.violations(of: nilOptionals, against: thing) == [])
        #expect(strict.violations(of: nilOptionals, against: thing).contains { $0.contains("$.tags: null") })
        // Undocumented, set or not: reported under both a closed object and additionalProperties: false.
        let undocumented: JSONValue = .object(["id": "th_abc", "kind": "small", "size": 3, "giftNote": .null])
        #expect(
            lenient.violations(of: undocumented, against: thing) == [
                "$: the member `giftNote` is not in the schema (additionalProperties: false)"
            ])
        let missingSchema: [String: Any] = [
            "type": "object", "required": ["code"], "properties": ["code": ["type": "string"]],
        ]
        #expect(
            lenient.violations(of: .object(["code": "x", "nested": .null]), against: missingSchema) == [
                "$: the member `nested` is not in the schema's properties"
            ])
        // A required member is not absent for being null.
        #expect(
            lenient.violations(of: .object(["id": .null, "kind": "small", "size": 3]), against: thing).contains {
                $0.contains("$.id: null is not of type string")
            })
    }

    @Test("a member the response type declares but the body leaves out is reported, named with its path")
    func shadowProblems() {
        let contract = ResponseContract(document: Self.document, violations: ContractViolations())
        let operation = Self.document.operation("GET", "/things/{id}")!
        let body = ByteBuffer(string: #"{"code":"x"}"#)
        let documented: JSONValue = .object(["code": "x"])
        let undocumented: JSONValue = .object(["code": "x", "detail": .object(["giftNote": .null])])
        #expect(
            contract.contentProblems(operation, 404, "application/json", body: body, shadow: .success(documented)) == []
        )
        let found = contract.contentProblems(
            operation, 404, "application/json", body: body, shadow: .success(undocumented))
        #expect(
            found.first == "$: the member `detail` is not in the schema's properties (declared by the response type)",
            "\(found)")
        #expect(
            contract.contentProblems(
                operation, 404, "application/json", body: body,
                shadow: .failure(.init(description: "boom"))
            ).first?.contains("could not be written as a tree: boom") == true)
    }

    @Test("every operation openapi.yaml answers with JSON has the Swift type it is decoded as, or a reason")
    func everyJSONOperationHasItsType() throws {
        let document = OpenAPIDocument.repository
        var answersJSON: Set<String> = []
        for operation in document.operations {
            let responses = operation.object["responses"] as? [String: Any] ?? [:]
            for (status, declared) in responses where "123".contains(status.prefix(1)) {
                let content = try document.resolved(declared as? [String: Any] ?? [:])["content"] as? [String: Any]
                if content?.keys.contains(where: { $0 == "application/json" || $0.hasSuffix("+json") }) == true {
                    answersJSON.insert("\(operation.method) \(operation.path)")
                }
            }
        }
        let listed = Set(ResponseTypes.success.keys).union(ResponseTypes.unlisted.keys)
        #expect(answersJSON.subtracting(listed).sorted() == [], "add them to ResponseTypes")
        #expect(listed.subtracting(answersJSON).sorted() == [], "not JSON operations of openapi.yaml")
    }

    @Test("wired into the application, it sees the values behind the bytes: route results and thrown errors")
    func shadowWiredIntoTheApplication() async throws {
        // Lists neither `nextCursor` (nil on a last page) nor `retryAfter` (nil but on 423 and 429).
        let document = try OpenAPIDocument(
            yaml: """
                openapi: 3.1.0
                paths:
                  /user/transactions:
                    get:
                      responses:
                        '200':
                          description: a page
                          content:
                            application/json:
                              schema:
                                type: object
                                required: [transactions]
                                properties:
                                  transactions:
                                    type: array
                        '401':
                          description: no session
                          content:
                            application/json:
                              schema:
                                type: object
                                properties:
                                  error:
                                    type: object
                                    properties:
                                      code:
                                        type: string
                                      message:
                                        type: string
                                      traceId:
                                        type: string
                                      available:
                                        type: integer
                                      limit:
                                        type: object
                """)
        let violations = ContractViolations()
        try await OpenAPITests.withRouter(contract: ResponseContract(document: document, violations: violations)) {
            _, app in
            try await app.test(.router) { client in
                let phone = TestPhones.next()
                let asked = try await client.execute(
                    uri: Endpoint.phoneVerification.path(), method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"phone":"\#(phone)","purpose":"signup"}"#))
                let verification = try JSONDecoder().decode(
                    PhoneVerificationResponse.self, from: Data(buffer: asked.body))
                var code: String?
                for _ in 0..<500 where code == nil {
                    let outbox = try await client.execute(uri: "/sim/sms?phone=\(phone)", method: .get)
                    let messages = try JSONDecoder().decode(SimulatedSMSList.self, from: Data(buffer: outbox.body))
                    code = messages.messages.first.map { String($0.body.prefix(6)) }
                    if code == nil { try await Task.sleep(for: .milliseconds(10)) }
                }
                let signup = try await client.execute(
                    uri: Endpoint.signup.path(), method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(
                        string:
                            #"{"verificationId":"\#(verification.verificationId)","code":"\#(try #require(code))","name":"Ada","pin":"4827"}"#
                    ))
                let token = try JSONDecoder().decode(SessionResponse.self, from: Data(buffer: signup.body)).sessionToken
                let page = try await client.execute(
                    uri: Endpoint.listTransactions.path(), method: .get, headers: [.authorization: "Bearer \(token)"])
                #expect(page.status == .ok && !String(buffer: page.body).contains("nextCursor"))
                let refused = try await client.execute(uri: Endpoint.listTransactions.path(), method: .get)
                #expect(refused.status == .unauthorized && !String(buffer: refused.body).contains("retryAfter"))
            }
        }
        let all = violations.all.joined(separator: "\n")
        #expect(violations.all.count == 2, "\(all)")
        #expect(
            all.contains(
                "GET /user/transactions (/user/transactions) → 200: $: the member `nextCursor` is not in the schema's properties (declared by the response type)"
            ), "\(all)")
        #expect(
            all.contains(
                "→ 401: $.error: the member `retryAfter` is not in the schema's properties (declared by the response type)"
            ), "\(all)")
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
}
