import Foundation

/// Checks a JSON value against a schema of openapi.yaml: the subset of JSON Schema 2020-12 the
/// document uses. `$ref`, `type` (one or a list, `null` included), `const`, `enum`, `required`,
/// `properties`, `additionalProperties`, `items`, `minItems`/`maxItems`, `minLength`/`maxLength`,
/// `pattern`, `format: date-time`, `minimum`/`maximum` (and the exclusive forms), `allOf`, `anyOf`,
/// `oneOf`, `not`, and OpenAPI 3.0's `nullable`. A keyword it does not know fails loudly, so the
/// spec cannot come to rely on one this checks nothing of.
struct JSONSchemaValidator {
    let document: OpenAPIDocument
    /// Whether an object schema (`type: object` with `properties`) that says nothing of
    /// `additionalProperties` admits only its listed members. The spec lists every member the
    /// server sends, so for responses an unlisted one means the spec has fallen behind.
    var closedObjects = false
    /// Whether a null member the object schema does not require counts as absent: its schema is not
    /// checked, but an unlisted one is still reported. `ShadowEncoder` writes a nil optional that
    /// `JSONEncoder` leaves out as such a null, so a member is documented before any test sets it.
    var nullMeansAbsent = false

    /// Keywords that describe without constraining.
    static let annotations: Set<String> = [
        "description", "examples", "example", "title", "default", "deprecated", "readOnly", "writeOnly",
        "contentEncoding",
        "contentMediaType", "discriminator", "externalDocs", "xml", "$comment",
    ]
    static let known: Set<String> = annotations.union([
        "$ref", "type", "const", "enum", "required", "properties", "additionalProperties", "items", "minItems",
        "maxItems",
        "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "allOf",
        "anyOf", "oneOf", "not", "nullable", "propertyNames",
    ])

    /// The ways `value` breaks `schema`, each with the JSON path (`$.data.amount`) where it does; empty when it conforms.
    func violations(of value: JSONValue, against schema: [String: Any], at path: String = "$") -> [String] {
        var found: [String] = []
        for key in schema.keys where !Self.known.contains(key) && !key.hasPrefix("x-") {
            found.append("\(path): the validator does not know the schema keyword `\(key)`")
        }
        if let reference = schema["$ref"] as? String {
            do {
                found += violations(of: value, against: try document.target(of: reference), at: path)
            } catch {
                found.append("\(path): \(error)")
            }
        }
        if value == .null, schema["nullable"] as? Bool == true { return found }
        if let types = Self.types(schema["type"]), !types.contains(where: { Self.value(value, is: $0) }) {
            found.append("\(path): \(Self.brief(value)) is not of type \(types.joined(separator: " or "))")
            return found
        }
        if let constant = schema["const"], !value.equals(yaml: constant) {
            found.append("\(path): \(Self.brief(value)) is not the constant \(constant)")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { value.equals(yaml: $0) }) {
            found.append("\(path): \(Self.brief(value)) is not one of \(options)")
        }
        switch value {
        case .object(let members): found += objectViolations(members, schema, path)
        case .array(let items): found += arrayViolations(items, schema, path)
        case .string(let string): found += Self.stringViolations(string, schema, path)
        case .integer(let number): found += Self.numberViolations(Double(number), schema, path)
        case .number(let number): found += Self.numberViolations(number, schema, path)
        case .null, .bool: break
        }
        found += combinationViolations(value, schema, path)
        return found
    }

    private func objectViolations(_ members: [String: JSONValue], _ schema: [String: Any], _ path: String) -> [String] {
        var found: [String] = []
        let properties = schema["properties"] as? [String: Any] ?? [:]
        let required = schema["required"] as? [String] ?? []
        for name in required where members[name] == nil {
            found.append("\(path): the required member `\(name)` is missing")
        }
        let names = schema["propertyNames"] as? [String: Any]
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let names { found += violations(of: .string(name), against: names, at: "\(path) (the name `\(name)`)") }
            let absent = nullMeansAbsent && member == .null && !required.contains(name)
            if let property = properties[name] as? [String: Any] {
                if !absent { found += violations(of: member, against: property, at: "\(path).\(name)") }
            } else if schema["additionalProperties"] as? Bool == false {
                found.append("\(path): the member `\(name)` is not in the schema (additionalProperties: false)")
            } else if closedObjects, schema["additionalProperties"] == nil, schema["type"] as? String == "object",
                !properties.isEmpty
            {
                found.append("\(path): the member `\(name)` is not in the schema's properties")
            } else if let additional = schema["additionalProperties"] as? [String: Any], !absent {
                found += violations(of: member, against: additional, at: "\(path).\(name)")
            }
        }
        return found
    }

    private func arrayViolations(_ items: [JSONValue], _ schema: [String: Any], _ path: String) -> [String] {
        var found: [String] = []
        if let minimum = schema["minItems"] as? Int, items.count < minimum {
            found.append("\(path): \(items.count) items, fewer than \(minimum)")
        }
        if let maximum = schema["maxItems"] as? Int, items.count > maximum {
            found.append("\(path): \(items.count) items, more than \(maximum)")
        }
        if let itemSchema = schema["items"] as? [String: Any] {
            for (index, item) in items.enumerated() {
                found += violations(of: item, against: itemSchema, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private static func stringViolations(_ string: String, _ schema: [String: Any], _ path: String) -> [String] {
        var found: [String] = []
        let length = string.unicodeScalars.count
        if let minimum = schema["minLength"] as? Int, length < minimum {
            found.append("\(path): \(brief(.string(string))) is shorter than \(minimum)")
        }
        if let maximum = schema["maxLength"] as? Int, length > maximum {
            found.append("\(path): \(brief(.string(string))) is longer than \(maximum)")
        }
        if let pattern = schema["pattern"] as? String {
            if let expression = try? NSRegularExpression(pattern: pattern) {
                let range = NSRange(string.startIndex..., in: string)
                if expression.firstMatch(in: string, range: range) == nil {
                    found.append("\(path): \(brief(.string(string))) does not match \(pattern)")
                }
            } else {
                found.append("\(path): the pattern \(pattern) does not compile")
            }
        }
        if schema["format"] as? String == "date-time", !isDateTime(string) {
            found.append("\(path): \(brief(.string(string))) is not an RFC 3339 date-time")
        }
        return found
    }

    private static func numberViolations(_ number: Double, _ schema: [String: Any], _ path: String) -> [String] {
        var found: [String] = []
        if let minimum = bound(schema["minimum"]), number < minimum {
            found.append("\(path): \(number) is below the minimum \(minimum)")
        }
        if let maximum = bound(schema["maximum"]), number > maximum {
            found.append("\(path): \(number) is above the maximum \(maximum)")
        }
        if let minimum = bound(schema["exclusiveMinimum"]), number <= minimum {
            found.append("\(path): \(number) is not above \(minimum)")
        }
        if let maximum = bound(schema["exclusiveMaximum"]), number >= maximum {
            found.append("\(path): \(number) is not below \(maximum)")
        }
        return found
    }

    private func combinationViolations(_ value: JSONValue, _ schema: [String: Any], _ path: String) -> [String] {
        var found: [String] = []
        for (index, part) in (schema["allOf"] as? [[String: Any]] ?? []).enumerated() {
            found += violations(of: value, against: part, at: path).map { "\($0) (allOf[\(index)])" }
        }
        if let options = schema["anyOf"] as? [[String: Any]],
            !options.contains(where: { violations(of: value, against: $0, at: path).isEmpty })
        {
            found.append("\(path): \(Self.brief(value)) matches none of anyOf")
        }
        if let options = schema["oneOf"] as? [[String: Any]] {
            let matches = options.filter { violations(of: value, against: $0, at: path).isEmpty }.count
            if matches != 1 {
                found.append("\(path): \(Self.brief(value)) matches \(matches) of oneOf, not exactly one")
            }
        }
        if let excluded = schema["not"] as? [String: Any], violations(of: value, against: excluded, at: path).isEmpty {
            found.append("\(path): \(Self.brief(value)) matches the schema under `not`")
        }
        return found
    }

    private static func types(_ type: Any?) -> [String]? {
        if let type = type as? String { return [type] }
        return type as? [String]
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string),
            ("array", .array), ("object", .object):
            true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }

    private static func bound(_ value: Any?) -> Double? {
        if let value = value as? Int { return Double(value) }
        return value as? Double
    }

    /// RFC 3339 `date-time`, e.g. `2024-01-22T10:30:45Z` or with a fraction or an offset.
    private static func isDateTime(_ string: String) -> Bool {
        string.range(
            of: #"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#, options: .regularExpression)
            != nil
    }

    /// A value short enough for a message.
    private static func brief(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
