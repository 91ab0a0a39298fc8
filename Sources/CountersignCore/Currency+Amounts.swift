/// Amounts as people read and type them: major units with the currency's decimals (`500.50` is
/// ₦500.50, 50050 kobo), as the web app shows them. The integer minor units stay the only form
/// that is stored, sent or added up.
extension Currency {
    /// The most any one amount may be, in minor units, before a limit of its own applies: 10^12 keeps
    /// every product Countersign computes with it inside 64 bits.
    public static let largestAmount: Int64 = 1_000_000_000_000

    /// The currency called `code`; one this build does not know is taken to have two decimals, as most do.
    public static func named(_ code: String) -> Currency {
        known[code] ?? Currency(code: code, minorUnitDigits: 2)
    }

    /// The sign people know the currency by (`₦`, `€`), else its code and a space.
    public var symbol: String {
        switch code {
        case "NGN": "₦"
        case "EUR": "€"
        default: code + " "
        }
    }

    /// `minor` units as `₦1,234.50` (`-₦5.00` below zero).
    public func format(_ minor: Int64) -> String {
        (minor < 0 ? "-" : "") + symbol + Self.grouped(plain(minor.magnitude))
    }

    /// `minor` units as a plain decimal with the currency's digits: 50050 → `500.50`.
    public func decimal(_ minor: Int64) -> String {
        (minor < 0 ? "-" : "") + plain(minor.magnitude)
    }

    /// Reads what someone typed as an amount of this currency: `500`, `500.5`, `500.50`, `1,500.50`,
    /// `₦500` or `NGN 500`, and returns its minor units. Refuses, with a message that says what to type,
    /// anything else: more decimals than the currency has, zero or less, outside `limits`.
    public func parse(_ typed: String, within limits: ClosedRange<Int64> = 1...Currency.largestAmount)
        throws(AmountError) -> Int64
    {
        let maximum = limits.upperBound
        var text = Self.trimmed(typed[...])
        for prefix in [Self.trimmed(symbol[...]), code[...]] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count).drop(while: { $0 == " " })
            break
        }
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty else { throw .notAnAmount(typed, example: example) }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard let whole = Self.ungrouped(first), fraction.allSatisfy(Self.isDigit),
            parts.count == 1 || !fraction.isEmpty
        else {
            throw .notAnAmount(typed, example: example)
        }
        guard fraction.count <= minorUnitDigits else { throw .tooManyDecimals(typed, code, digits: minorUnitDigits) }
        let digits =
            whole.drop(while: { $0 == "0" }) + fraction
            + String(repeating: "0", count: minorUnitDigits - fraction.count)
        let significant = digits.drop(while: { $0 == "0" })
        // Anything longer than the largest amount's digits is larger than it: refused before it can overflow.
        guard significant.count <= String(maximum).count, let minor = Int64(significant.isEmpty ? "0" : significant)
        else {
            throw .tooLarge(typed, maximum: format(maximum))
        }
        guard !negative, minor > 0 else { throw .notPositive(typed) }
        guard minor <= maximum else { throw .tooLarge(typed, maximum: format(maximum)) }
        guard minor >= limits.lowerBound else { throw .tooSmall(typed, minimum: format(limits.lowerBound)) }
        return minor
    }

    private var example: String { minorUnitDigits > 0 ? "500 or 500.50" : "500" }

    private func plain(_ magnitude: UInt64) -> String {
        guard minorUnitDigits > 0 else { return String(magnitude) }
        let scale = (0..<minorUnitDigits).reduce(UInt64(1)) { value, _ in value * 10 }
        let fraction = String(magnitude % scale)
        return String(magnitude / scale) + "." + String(repeating: "0", count: minorUnitDigits - fraction.count)
            + fraction
    }

    /// `1234.50` as `1,234.50`.
    private static func grouped(_ decimal: String) -> String {
        let whole = decimal.prefix(while: { $0 != "." })
        var grouped = ""
        for (index, character) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return grouped + decimal.dropFirst(whole.count)
    }

    /// The digits of `1,500` or `1500`; nil for anything else (`1,5` is someone's decimal comma, not a thousand).
    private static func ungrouped(_ text: Substring) -> Substring? {
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return nil }
        guard groups.count > 1 else { return text }
        guard groups[0].count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        return Substring(groups.joined())
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text.drop(while: { $0 == " " })
        while text.last == " " { text = text.dropLast() }
        return text
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
}

/// Why a typed amount was refused; the description says what to type instead.
public enum AmountError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a number as people write amounts.
    case notAnAmount(String, example: String)
    /// More decimals than the currency's minor unit has.
    case tooManyDecimals(String, String, digits: Int)
    /// Zero or below.
    case notPositive(String)
    /// Above the most allowed, which is given formatted.
    case tooLarge(String, maximum: String)
    /// Below the least allowed, which is given formatted.
    case tooSmall(String, minimum: String)

    public var description: String {
        switch self {
        case .notAnAmount(let typed, let example):
            "\"\(typed)\" is not an amount: type it in units of the currency, with a dot for the decimals, e.g. \(example)"
        case .tooManyDecimals(let typed, let code, let digits):
            "\"\(typed)\" has more decimals than \(code) has: type at most \(digits) after the dot, e.g. 500.50"
        case .notPositive(let typed):
            "\"\(typed)\" is not more than zero: type the amount to move, e.g. 500"
        case .tooLarge(let typed, let maximum):
            "\"\(typed)\" is more than the most allowed at once, \(maximum)"
        case .tooSmall(let typed, let minimum):
            "\"\(typed)\" is less than the least allowed, \(minimum)"
        }
    }
}
