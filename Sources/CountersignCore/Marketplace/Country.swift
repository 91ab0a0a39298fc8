/// An ISO 3166-1 alpha-2 country code, upper case, e.g. `NL`.
public struct Country: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The two letters.
    public let code: String

    /// The code for `text` (upper-cased), or nil unless it is two ASCII letters.
    public init?(_ text: String) {
        // Checked before upper-casing: "ß".uppercased() is "SS".
        guard text.utf8.count == 2, text.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            return nil
        }
        self.code = text.uppercased()
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let country = Country(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 3166-1 alpha-2 code: \(text)"))
        }
        self = country
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
