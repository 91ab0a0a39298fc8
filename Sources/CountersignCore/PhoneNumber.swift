/// A phone number in E.164 (`+` and 8 to 15 digits), however the user typed it.
///
/// One number has one form, so `08055501234` and `+2348055501234` are the same account and the same
/// payee: a number cannot be registered twice by writing it another way. A number written without
/// its country code is read in a `PhoneRegion` (Nigeria unless configured).
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The E.164 text: `+`, the country code, the national number.
    public let value: String

    /// Parses `text` into E.164; nil if it is not a number. Accepted: `+CC…` or `00CC…`, a national
    /// number with or without the region's trunk prefix, or the region's country code without the
    /// `+`; digits may be grouped by single spaces or dashes (`0803 123-4567`). openapi.yaml's `Phone`
    /// pattern describes exactly this for the default region.
    public init?(_ text: String, region: PhoneRegion = .nigeria) {
        guard let parsed = Self.digits(of: text) else { return nil }
        var (digits, international) = parsed
        if !international, digits.hasPrefix("00") {
            international = true
            digits.removeFirst(2)
        }
        if !international {
            guard let national = region.nationalNumber(of: digits) else { return nil }
            digits = region.countryCode + national
        }
        // E.164: at most 15 digits; a country code and a subscriber number make at least 8.
        guard (8...15).contains(digits.count), digits.first != "0" else { return nil }
        self.value = "+" + digits
    }

    /// The start of a number, written as the user forms accept a whole one, in E.164 (`+` and 8 to 15
    /// digits): `+CC…` or `00CC…`; the region's trunk prefix and at least five digits of a national
    /// number (`080312` is `+23480312`); the country code and at least five digits more; or at least
    /// five national digits alone. Nil for anything else. Eight digits at least, so that walking
    /// prefixes to list every user takes many searches.
    public static func prefix(_ text: String, region: PhoneRegion = .nigeria) -> String? {
        guard let parsed = Self.digits(of: text) else { return nil }
        var (digits, international) = parsed
        let nationalRange = max(5, 8 - region.countryCode.count)...(region.nationalLengths.max() ?? 5)
        if !international, digits.hasPrefix("00") {
            international = true
            digits.removeFirst(2)
        } else if !international, digits.hasPrefix(region.trunkPrefix) {
            let national = digits.dropFirst(region.trunkPrefix.count)
            guard nationalRange.contains(national.count), national.first != "0" else { return nil }
            digits = region.countryCode + national
        } else if !international, digits.hasPrefix(region.countryCode),
            (5...(15 - region.countryCode.count)).contains(digits.count - region.countryCode.count)
        {
            // The country code without its `+`, as the forms accept it.
        } else if !international {
            guard nationalRange.contains(digits.count) else { return nil }
            digits = region.countryCode + digits
        }
        guard (8...15).contains(digits.count), digits.first != "0" else { return nil }
        return "+" + digits
    }

    /// The digits of `text` and whether it began with `+`; nil unless it is digits, perhaps grouped by
    /// single spaces or dashes, after an optional leading `+`.
    private static func digits(of text: String) -> (digits: String, international: Bool)? {
        // Written with room to spare; anything longer is not a phone number.
        guard text.utf8.count <= 32 else { return nil }
        var digits = ""
        var international = false
        var previous: UInt8?
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "+") where index == 0:
                international = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.unicodeScalars.append(Unicode.Scalar(byte))
            // A separator only between two digits.
            case UInt8(ascii: " "), UInt8(ascii: "-"):
                guard let previous, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(previous) else { return nil }
            default:
                return nil
            }
            previous = byte
        }
        guard let previous, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(previous) else { return nil }
        return (digits, international)
    }

    public var description: String { value }
}

/// How numbers written without a country code are read: its country code, its trunk prefix and the
/// lengths of its national numbers.
public struct PhoneRegion: Sendable, Hashable {
    /// ISO 3166 alpha-2, e.g. `NG`.
    public let code: String
    /// E.g. `234`.
    public let countryCode: String
    /// Dialled before a national number within the country, e.g. `0`.
    public let trunkPrefix: String
    /// How many digits a national number has, without the trunk prefix.
    public let nationalLengths: Set<Int>

    /// Nigeria: +234, trunk 0, ten-digit national numbers (`0803 123 4567`).
    public static let nigeria = PhoneRegion(code: "NG", countryCode: "234", trunkPrefix: "0", nationalLengths: [10])
    /// The Netherlands: +31, trunk 0, nine digits.
    public static let netherlands = PhoneRegion(code: "NL", countryCode: "31", trunkPrefix: "0", nationalLengths: [9])
    /// Belgium: +32, trunk 0, eight or nine digits.
    public static let belgium = PhoneRegion(code: "BE", countryCode: "32", trunkPrefix: "0", nationalLengths: [8, 9])
    /// The regions a server may be configured with (`--phone-region`).
    public static let known: [PhoneRegion] = [.nigeria, .netherlands, .belgium]

    /// The region with ISO code `code` (any case), if known.
    public init?(code: String) {
        guard let region = Self.known.first(where: { $0.code == code.uppercased() }) else { return nil }
        self = region
    }

    public init(code: String, countryCode: String, trunkPrefix: String, nationalLengths: Set<Int>) {
        self.code = code
        self.countryCode = countryCode
        self.trunkPrefix = trunkPrefix
        self.nationalLengths = nationalLengths
    }

    /// The national number in `digits` written without `+`: trunk prefix and national number, the
    /// national number alone, or the country code and national number.
    func nationalNumber(of digits: String) -> String? {
        if digits.hasPrefix(trunkPrefix), nationalLengths.contains(digits.count - trunkPrefix.count) {
            return String(digits.dropFirst(trunkPrefix.count))
        }
        if digits.hasPrefix(countryCode), nationalLengths.contains(digits.count - countryCode.count) {
            return String(digits.dropFirst(countryCode.count))
        }
        if nationalLengths.contains(digits.count), !digits.hasPrefix(trunkPrefix) { return digits }
        return nil
    }
}
