/// A phone number as the user typed it, checked for shape and reduced to a canonical form.
///
/// The canonical form keeps an optional leading `+` and the digits; spaces and dashes are removed.
/// Two numbers are the same recipient only if their canonical forms are equal.
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The canonical text: an optional `+` followed by 7 to 15 digits.
    public let value: String

    /// Parses a phone number; returns nil when it is not 7–15 digits with an optional leading `+`.
    public init?(_ text: String) {
        var result = ""
        for (index, character) in text.enumerated() {
            if character == "+" && index == 0 {
                result.append(character)
            } else if character.isASCII, character.isNumber {
                result.append(character)
            } else if character == " " || character == "-" {
                continue
            } else {
                return nil
            }
        }
        let digits = result.hasPrefix("+") ? result.count - 1 : result.count
        guard (7...15).contains(digits) else { return nil }
        self.value = result
    }

    public var description: String { value }
}
