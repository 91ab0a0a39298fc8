import Foundation

/// The request contract of Twilio's `CreateMessage` operation, as extracted from Twilio's OpenAPI
/// description into `Tests/Fixtures/twilio/create-message.json` (its README says from which commit
/// and how to refresh it). `FakeTwilio` checks every request against it.
struct TwilioMessageContract: Decodable, Sendable {
    struct Source: Decodable, Sendable {
        let repository: String
        let commit: String
        let file: String
    }

    /// One value's schema: what the fixture keeps of OpenAPI's.
    struct Schema: Decodable, Sendable {
        let type: String
        let format: String?
        let pattern: String?
        let minLength: Int?
        let maxLength: Int?
        let `enum`: [String]?
        let items: Item?
    }

    /// An array's element schema.
    struct Item: Decodable, Sendable {
        let type: String
        let format: String?
    }

    struct SecurityScheme: Decodable, Sendable {
        let type: String
        let scheme: String?
    }

    let source: Source
    let operationId: String
    let method: String
    let path: String
    let pathParameters: [String: Schema]
    let security: [String: SecurityScheme]
    let contentType: String
    let required: [String]
    let properties: [String: Schema]
    let successStatus: [Int]

    /// `Tests/Fixtures/twilio/create-message.json`, found from this file's path.
    static func load() throws -> TwilioMessageContract {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/twilio/create-message.json")
        return try JSONDecoder().decode(TwilioMessageContract.self, from: Data(contentsOf: file))
    }

    /// The path parameters of `path` if it is this operation's path (`{AccountSid}` in any shape),
    /// nil if it is another path altogether.
    func pathParameters(_ path: String) -> [String: String]? {
        let (template, actual) = (self.path.split(separator: "/"), path.split(separator: "/"))
        guard template.count == actual.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, given) in zip(template, actual) {
            if expected.hasPrefix("{") && expected.hasSuffix("}") {
                parameters[String(expected.dropFirst().dropLast())] = String(given).removingPercentEncoding
            } else if expected != given {
                return nil
            }
        }
        return parameters
    }

    /// Every way a request to this operation's path breaks the contract; empty if it keeps it.
    func violations(method: String, path: String, contentType: String?, authorization: String?, form: FakeForm)
        -> [String]
    {
        var found: [String] = []
        if method != self.method { found.append("method \(method), not \(self.method)") }
        for (name, value) in pathParameters(path) ?? [:] {
            if let schema = pathParameters[name], let problem = Self.problem(value, schema) {
                found.append("path parameter \(name): \(problem)")
            }
        }
        for (name, scheme) in security where scheme.type == "http" && scheme.scheme == "basic" {
            if Self.basicCredentials(authorization) == nil {
                found.append("\(name): no HTTP Basic credentials (user:password) in Authorization")
            }
        }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if mediaType != self.contentType {
            found.append("content type \(contentType ?? "none"), not \(self.contentType)")
        }
        for name in required where form[name] == nil { found.append("required field \(name) is missing") }
        for (name, values) in Dictionary(grouping: form.pairs, by: \.key) {
            guard let schema = properties[name] else {
                found.append("field \(name) is not one the operation takes")
                continue
            }
            if schema.type != "array" && values.count > 1 {
                found.append("field \(name) is given \(values.count) times")
            }
            for pair in values {
                let problem =
                    schema.type == "array"
                    ? schema.items.flatMap { Self.problem(pair.value, Schema(type: $0.type, format: $0.format)) }
                    : Self.problem(pair.value, schema)
                if let problem { found.append("field \(name): \(problem)") }
            }
        }
        return found.sorted()
    }

    /// What is wrong with `value` under `schema`, if anything. `phone-number` is any non-empty
    /// text: Twilio judges numbers itself (error 21211), and so does the fake.
    static func problem(_ value: String, _ schema: Schema) -> String? {
        switch schema.type {
        case "integer" where Int64(value) == nil: return "\(value.debugDescription) is not an integer"
        case "number" where Double(value) == nil: return "\(value.debugDescription) is not a number"
        case "boolean" where !["true", "false"].contains(value): return "\(value.debugDescription) is not a boolean"
        default: break
        }
        if let pattern = schema.pattern, let regex = try? Regex(pattern), value.wholeMatch(of: regex) == nil {
            return "\(value.debugDescription) does not match \(pattern)"
        }
        if let minimum = schema.minLength, value.count < minimum { return "shorter than \(minimum)" }
        if let maximum = schema.maxLength, value.count > maximum { return "longer than \(maximum)" }
        if let allowed = schema.enum, !allowed.contains(value) {
            return "\(value.debugDescription) is not in \(allowed)"
        }
        switch schema.format {
        case "uri" where URL(string: value)?.scheme == nil: return "\(value.debugDescription) is not a URI"
        case "date-time" where ISO8601DateFormatter().date(from: value) == nil:
            return "\(value.debugDescription) is not a date-time"
        case "phone-number" where value.isEmpty: return "empty phone number"
        default: return nil
        }
    }

    /// `Basic base64(user:password)` with neither part empty, as (user, password).
    static func basicCredentials(_ authorization: String?) -> (user: String, password: String)? {
        guard let authorization, authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count))),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let (user, password) = (String(text[..<colon]), String(text[text.index(after: colon)...]))
        return user.isEmpty || password.isEmpty ? nil : (user, password)
    }
}

extension TwilioMessageContract.Schema {
    init(type: String, format: String?) {
        self.init(type: type, format: format, pattern: nil, minLength: nil, maxLength: nil, enum: nil, items: nil)
    }
}
