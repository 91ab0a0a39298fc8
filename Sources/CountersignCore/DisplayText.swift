/// Text one user typed that another user is shown (a payee's name in a transfer quote): without
/// control, format and separator characters. Bidirectional overrides (U+202E) could make
/// "Ada‮txe.exe" read as another name, and zero-width or line-breaking characters could hide or
/// move parts of it.
public enum DisplayText {
    /// `text` without Unicode control (Cc), format (Cf, the bidi controls and zero-width marks among
    /// them), line and paragraph separator characters, white space runs folded to one space and trimmed.
    public static func sanitized(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                continue
            case .spaceSeparator:
                pendingSpace = !result.isEmpty
            default:
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The first word of `name` and the initials of the rest (`Ada L.` for "Ada Lovelace"), sanitized:
    /// what a payer is shown of a payee before the money moves.
    public static func partialName(_ name: String) -> String {
        let words = sanitized(name).split(separator: " ")
        guard let first = words.first else { return "" }
        let initials = words.dropFirst().compactMap { $0.first.map { "\($0)." } }
        return ([String(first)] + initials).joined(separator: " ")
    }
}
