import CountersignAPI
import Foundation
import Testing
import WebAuthn
import Yams

@testable import CountersignServer

/// `ErrorCode` is the one list of codes: openapi.yaml lists exactly its cases, documents each with
/// the status `ErrorCode.status` gives it, and the web app compares only against real codes.
@Suite("Error codes")
struct ErrorCodeTests {
    /// The one documented place a code is sent with a status other than its own (see `MissingResource`).
    static let documentedExceptions: Set<String> = [
        "DELETE /biometric/credentials/{id} 404 unknown_credential",
        "POST /operator/users/{userId}/keys/{credentialId}/revoke 404 unknown_credential",
    ]

    static func document() throws -> [String: Any] {
        let text = try String(contentsOf: OpenAPIDocument.sourceURL, encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    @Test("openapi.yaml's ErrorCode enum is exactly ErrorCode.allCases, and the error bodies' code refers to it")
    func specListsEveryCode() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let listed = try #require((schemas["ErrorCode"] as? [String: Any])?["enum"] as? [String])
        #expect(listed.count == Set(listed).count, "a code is listed twice")
        let known = Set(ErrorCode.allCases.map(\.rawValue))
        #expect(
            Set(listed).subtracting(known).isEmpty,
            "in openapi.yaml but not in ErrorCode: \(Set(listed).subtracting(known).sorted())")
        #expect(
            known.subtracting(listed).isEmpty,
            "in ErrorCode but not in openapi.yaml: \(known.subtracting(listed).sorted())")
        let errorBody = (schemas["ErrorResponse"] as? [String: Any])?["properties"] as? [String: Any]
        let general =
            ((errorBody?["error"] as? [String: Any])?["properties"] as? [String: Any])?["code"] as? [String: Any]
        let verification =
            ((schemas["VerificationFailure"] as? [String: Any])?["properties"] as? [String: Any])?["code"]
            as? [String: Any]
        #expect(general?["$ref"] as? String == "#/components/schemas/ErrorCode")
        #expect(verification?["$ref"] as? String == "#/components/schemas/ErrorCode")
    }

    @Test("every code a response lists in x-error-codes is an ErrorCode sent with that response's status")
    func documentedStatusesMatch() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: Any])
        let shared = try #require((document["components"] as? [String: Any])?["responses"] as? [String: Any])
        var checked = 0
        var exceptions = Set<String>()
        for (path, item) in paths {
            for (method, operation) in item as? [String: Any] ?? [:] {
                for (status, answer) in (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:] {
                    var response = answer as? [String: Any] ?? [:]
                    if let reference = response["$ref"] as? String {
                        response = try #require(
                            shared[String(reference.split(separator: "/").last ?? "")] as? [String: Any], "\(reference)"
                        )
                    }
                    for code in response["x-error-codes"] as? [String] ?? [] {
                        let place = "\(method.uppercased()) \(path) \(status) \(code)"
                        guard let known = ErrorCode(rawValue: code) else {
                            Issue.record("\(place): not an ErrorCode")
                            continue
                        }
                        checked += 1
                        if Int(known.status.code) != Int("\(status)") {
                            if Self.documentedExceptions.contains(place) {
                                exceptions.insert(place)
                            } else {
                                Issue.record("\(place): ErrorCode.status says \(known.status.code)")
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 200, "only \(checked) documented codes found: is x-error-codes still used?")
        #expect(exceptions == Self.documentedExceptions, "a documented exception no longer appears in openapi.yaml")
    }

    @Test("every WebAuthn refusal is sent under a code with its own raw value")
    func webAuthnCodesKeepTheirNames() {
        for code in WebAuthnError.Code.allCases {
            #expect(ErrorCode(code).rawValue == code.rawValue)
        }
    }

    @Test("every error code the web app compares a caught error's code with is an ErrorCode")
    func webAppComparesRealCodes() throws {
        let web = OpenAPIDocument.sourceURL.deletingLastPathComponent().appendingPathComponent("web")
        let files = try #require(FileManager.default.enumerator(at: web, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "js" }
        // `e.code === '…'`, `error?.code === '…'`: comparisons of a caught CountersignError's code.
        // Other `code`s (a transfer's or a payment attempt's failure) are not error codes.
        let comparison = try NSRegularExpression(
            pattern: #"(?<!typeof )\b(?:e|err|error)\??\.code\s*[!=]==\s*'([a-z0-9_]+)'"#)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in comparison.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let code = String(text[range])
                found.append(code)
                #expect(
                    ErrorCode(rawValue: code) != nil,
                    "\(file.lastPathComponent) compares an error's code with '\(code)', which the server never sends")
            }
        }
        #expect(
            Set(found).isSuperset(of: ["unauthenticated", "order_paid", "no_registered_credential"]),
            "the pattern no longer finds the web app's comparisons: \(found)")
    }
}
