import Foundation
import NIOCore
import Testing

/// The checks `ResponseContract` runs on every response: each kind of mismatch is caught, so a
/// suite that finds none means the responses conform, not that the checker saw nothing.
@Suite("Response contract checker")
struct ContractCheckTests {
    static let document = try! OpenAPIDocument(yaml: """
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
        #expect(Self.problems(200, #"{"id":"th_abc","kind":"small","size":3,"note":null,"tags":["a"],"when":"2024-01-22T10:30:45Z","either":4}"#) == [])
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

    @Test("an undocumented status, an undocumented media type, and a body where none is documented are reported")
    func statusAndContent() {
        #expect(Self.problems(500, #"{"code":"x"}"#).first?.contains("status 500 is not documented") == true)
        #expect(Self.problems(200, "<p>", contentType: "text/html").first?.contains("Content-Type text/html") == true)
        #expect(Self.problems(204, "{}").first?.contains("a body where openapi.yaml documents none") == true)
        #expect(Self.problems(404, "{}").contains { $0.contains("required member `code`") })
    }

    @Test("a schema keyword the checker does not know is reported, not skipped")
    func unknownKeyword() {
        let validator = JSONSchemaValidator(document: Self.document)
        #expect(validator.violations(of: .string("a"), against: ["type": "string", "uniqueItems": true]).contains { $0.contains("uniqueItems") })
    }
}
