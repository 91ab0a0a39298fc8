extension PhoneNumber {
    /// The country calling code this number starts with (`234` for `+2348031234567`, `1` for the
    /// North American plan), read from ITU-T E.164's assignments, which are prefix-free: `1` and `7`
    /// are the only one-digit codes, the two-digit ones are listed below, every other code has three
    /// digits. SMS budgets are kept per calling code: SMS pumping fraud sends codes to expensive
    /// destinations in bulk.
    public var callingCode: String {
        let digits = value.dropFirst()
        guard let first = digits.first else { return "" }
        if first == "1" || first == "7" { return String(first) }
        let two = String(digits.prefix(2))
        if Self.twoDigitCallingCodes.contains(two) { return two }
        return String(digits.prefix(3))
    }

    /// The two-digit country calling codes in service.
    static let twoDigitCallingCodes: Set<String> = [
        "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
        "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
        "86", "90", "91", "92", "93", "94", "95", "98",
    ]

    /// The number with all but its last `visible` digits hidden (`+234•••••••4567`), for messages
    /// and logs that must say which number without spelling it out.
    public func masked(visible: Int = 4) -> String {
        let digits = Array(value.dropFirst())
        let shown = max(0, min(visible, digits.count))
        let hidden = digits.count - shown
        let prefix = callingCode.count < hidden ? callingCode : ""
        return "+" + prefix + String(repeating: "•", count: hidden - prefix.count) + String(digits.suffix(shown))
    }
}
