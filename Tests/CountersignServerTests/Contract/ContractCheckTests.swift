import CountersignAPI
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

/// The checks `ResponseContract` runs on every response: each kind of mismatch is caught, so a
/// suite that finds none means the responses conform, not that the checker saw nothing.
@Suite("Response contract checker")
struct ContractCheckTests {
    static let document = try! OpenAPIDocument(
        yaml: """
            openapi: 3.1.0
            paths:
              /things/{id}:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            $ref: '#/components/schemas/Thing'
                    '204':
                      description: nothing
                    '404':
                      $ref: '#/components/responses/Missing'
            components:
              responses:
                Missing:
                  description: no such thing
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [code]
                        properties:
                          code:
                            type: string
              schemas:
                Thing:
                  type: object
                  additionalProperties: false
                  required: [id, kind, size]
                  properties:
                    id:
                      type: string
                      pattern: '^th_[a-z]+$'
                      maxLength: 8
                    kind:
                      type: string
                      enum: [small, large]
                    size:
                      type: integer
                      minimum: 1
                      maximum: 10
                    note:
                      type: [string, 'null']
                    tags:
                      type: array
                      minItems: 1
                      items:
                        type: string
                      x-note: ignored
                    when:
                      type: string
                      format: date-time
                    either:
                      oneOf:
                        - type: string
                        - type: integer
            """)

    static func problems(_ status: Int, _ body: String?, contentType: String? = "application/json") -> [String] {
        let contract = ResponseContract(document: document, violations: ContractViolations())
        let operation = document.operation("GET", "/things/{id}")!
        return contract.contentProblems(operation, status, contentType, body: body.map { ByteBuffer(string: $0) })
    }

    @Test("a conforming body passes, nulls and optional members included")
    func conforming() {
        #expect(
            Self.problems(
                200,
                #"{"id":"th_abc","kind":"small","size":3,"note":null,"tags":["a"],"when":"2024-01-22T10:30:45Z","either":4}"#
            ) == [])
        #expect(Self.problems(204, "") == [])
        #expect(Self.problems(404, #"{"code":"x"}"#) == [])
    }

    @Test(
        "each kind of mismatch is reported",
        arguments: [
            (#"{"kind":"small","size":3}"#, "required member `id`"),
            (#"{"id":"th_abc","kind":"huge","size":3}"#, "is not one of"),
            (#"{"id":"TH_abc","kind":"small","size":3}"#, "does not match"),
            (#"{"id":"th_abcdefgh","kind":"small","size":3}"#, "longer than 8"),
            (#"{"id":"th_abc","kind":"small","size":0}"#, "below the minimum"),
            (#"{"id":"th_abc","kind":"small","size":3.5}"#, "not of type integer"),
            (#"{"id":"th_abc","kind":"small","size":true}"#, "not of type integer"),
            (#"{"id":"th_abc","kind":"small","size":3,"extra":1}"#, "additionalProperties: false"),
            (#"{"id":"th_abc","kind":"small","size":3,"tags":[]}"#, "fewer than 1"),
            (#"{"id":"th_abc","kind":"small","size":3,"tags":[1]}"#, "$.tags[0]: 1 is not of type string"),
            (#"{"id":"th_abc","kind":"small","size":3,"when":"yesterday"}"#, "date-time"),
            (#"{"id":"th_abc","kind":"small","size":3,"either":false}"#, "matches 0 of oneOf"),
            ("not json", "not JSON"),
        ]
    )
    func mismatches(body: String, expected: String) {
        let found = Self.problems(200, body)
        #expect(found.contains { $0.contains(expected) }, "\(body): \(found)")
    }

    @Test("an undocumented status, media type or member, and a body where none is documented, are reported")
    func statusAndContent() {
        #expect(Self.problems(500, #"{"code":"x"}"#).first?.contains("status 500 is not documented") == true)
        #expect(Self.problems(200, "<p>", contentType: "text/html").first?.contains("Content-Type text/html") == true)
        #expect(Self.problems(204, "{}").first?.contains("a body where openapi.yaml documents none") == true)
        #expect(Self.problems(404, "{}").contains { $0.contains("required member `code`") })
        // Responses admit only the members the schema lists.
        #expect(
            Self.problems(404, #"{"code":"x","extra":1}"#).contains {
                $0.contains("`extra` is not in the schema's properties")
            })
    }

    @Test("a request path finds its template when no route was matched (a middleware answered first)")
    func templateMatching() {
        let document = OpenAPIDocument.repository
        #expect(document.template(matching: "/transfers/tr_1/events") == "/transfers/{id}/events")
        #expect(document.template(matching: "/user/profile") == "/user/profile")
        #expect(document.template(matching: "/orders/o_1/payment/cancel") == "/orders/{id}/payment/cancel")
        #expect(document.template(matching: "/transfers//events") == nil)
        #expect(document.template(matching: "/no/such/path") == nil)
    }

    @Test("a schema keyword the checker does not know is reported, not skipped")
    func unknownKeyword() {
        let validator = JSONSchemaValidator(document: Self.document)
        #expect(
            validator.violations(of: .string("a"), against: ["type": "string", "uniqueItems": true]).contains {
                $0.contains("uniqueItems")
            })
    }

    @Test("wired into the application, it sees the route the router matched and reports what the document lacks")
    func wiredIntoTheApplication() async throws {
        // A document that knows only the 503 of /health: the real 200 must be reported.
        let document = try OpenAPIDocument(
            yaml: """
                openapi: 3.1.0
                paths:
                  /health:
                    get:
                      responses:
                        '503':
                          description: down
                """)
        let violations = ContractViolations()
        try await OpenAPITests.withRouter(contract: ResponseContract(document: document, violations: violations)) {
            _, app in
            try await app.test(.router) { client in
                let response = try await client.execute(uri: Endpoint.health.path(), method: .get)
                #expect(response.status == .ok)
                #expect(
                    String(buffer: response.body).contains(#""status":"ok""#),
                    "the checked body still reaches the client")
            }
        }
        #expect(violations.all.count == 1)
        #expect(
            violations.all.first?.contains("GET /health (/health) → 200: status 200 is not documented") == true,
            "\(violations.all)")
    }
}
