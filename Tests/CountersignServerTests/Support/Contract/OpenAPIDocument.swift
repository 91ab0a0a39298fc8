import Foundation
import Yams

/// openapi.yaml as the tests read it: parsed with Yams, its operations listed, its `$ref`s resolved.
struct OpenAPIDocument: @unchecked Sendable {
    /// One operation of the document.
    struct Operation {
        /// `GET`, `POST`, …
        let method: String
        /// The path template, e.g. `/transfers/{id}`.
        let path: String
        /// `security: []`: callable without a session.
        let isPublic: Bool
        /// The operation object.
        let object: [String: Any]
    }

    /// The parsed document. Yams gives only value types (String, Int, Double, Bool, NSNull, arrays
    /// and dictionaries of them), and nothing mutates it: hence `@unchecked Sendable`.
    let root: [String: Any]

    /// The document in the repository, which the server serves unchanged.
    static let sourceURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CountersignServer/Resources/openapi.yaml")

    /// The repository's openapi.yaml, parsed once; a document that does not parse stops the test run.
    static let repository: OpenAPIDocument = {
        do {
            return try OpenAPIDocument(yaml: String(contentsOf: sourceURL, encoding: .utf8))
        } catch {
            fatalError("\(sourceURL.path) does not parse: \(error)")
        }
    }()

    init(yaml: String) throws {
        guard let root = try Yams.load(yaml: yaml) as? [String: Any] else {
            throw DocumentError("the document is not a mapping")
        }
        self.root = root
    }

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// Every operation under `paths`.
    var operations: [Operation] {
        let paths = root["paths"] as? [String: Any] ?? [:]
        let globalSecurity = root["security"] as? [Any]
        return paths.flatMap { path, item in
            (item as? [String: Any] ?? [:]).compactMap { key, value -> Operation? in
                guard Self.methods.contains(key), let object = value as? [String: Any] else { return nil }
                let security = (object["security"] as? [Any]) ?? globalSecurity ?? []
                return Operation(method: key.uppercased(), path: path, isPublic: security.isEmpty, object: object)
            }
        }
    }

    /// The operation for `method` on the path template `path`, if the document has it.
    func operation(_ method: String, _ path: String) -> Operation? {
        guard let item = (root["paths"] as? [String: Any])?[path] as? [String: Any],
            let object = item[method.lowercased()] as? [String: Any]
        else { return nil }
        let security = (object["security"] as? [Any]) ?? (root["security"] as? [Any]) ?? []
        return Operation(method: method.uppercased(), path: path, isPublic: security.isEmpty, object: object)
    }

    /// The document's path template that a request's `path` matches, segment by segment (a
    /// `{name}` segment matches any one); of several, the one with the most literal segments.
    func template(matching path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let candidates = (root["paths"] as? [String: Any] ?? [:]).keys.compactMap { template -> (String, Int)? in
            let pattern = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard pattern.count == segments.count else { return nil }
            var literals = 0
            for (expected, actual) in zip(pattern, segments) {
                if expected.hasPrefix("{") && expected.hasSuffix("}") {
                    guard !actual.isEmpty else { return nil }
                } else {
                    guard expected == actual else { return nil }
                    literals += 1
                }
            }
            return (template, literals)
        }
        return candidates.max { $0.1 < $1.1 }?.0
    }

    /// `object` itself, or what its `$ref` (`#/a/b/c`) points to, followed until no `$ref` is left.
    func resolved(_ object: [String: Any]) throws -> [String: Any] {
        var current = object
        var seen = Set<String>()
        while let reference = current["$ref"] as? String {
            guard seen.insert(reference).inserted else { throw DocumentError("\(reference) refers to itself") }
            current = try target(of: reference)
        }
        return current
    }

    /// The object a local `$ref` names.
    func target(of reference: String) throws -> [String: Any] {
        guard reference.hasPrefix("#/") else {
            throw DocumentError("\(reference): only local references are supported")
        }
        var node: Any = root
        for key in reference.dropFirst(2).split(separator: "/") {
            let key = key.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = (node as? [String: Any])?[key] else {
                throw DocumentError("\(reference) does not resolve")
            }
            node = next
        }
        guard let object = node as? [String: Any] else { throw DocumentError("\(reference) is not an object") }
        return object
    }
}

/// openapi.yaml is not what the tests expect of it.
struct DocumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
