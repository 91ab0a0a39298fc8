/// Which PINs a person may choose. A 4 to 6 digit PIN has at most a million values, and people
/// choose a few of them far more often than the rest: in published analyses of leaked PINs,
/// `1234`, `1111` and `0000` alone cover about a fifth of all 4-digit PINs. An attacker guesses
/// those first, so they are refused when a PIN is chosen (signup, reset, change).
public enum PinPolicy {
    /// Why `pin` may not be chosen, or nil if it may. `pin` is assumed to be 4 to 6 ASCII digits.
    public static func weakness(of pin: String) -> String? {
        let digits = pin.utf8.map { Int($0) - 48 }
        guard digits.count >= 4, digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        if Set(digits).count == 1 { return "a PIN of one repeated digit is guessed first" }
        let steps = zip(digits, digits.dropFirst()).map { ($1 - $0 + 10) % 10 }
        if steps.allSatisfy({ $0 == 1 }) || steps.allSatisfy({ $0 == 9 }) {
            return "a run of consecutive digits is guessed first"
        }
        // Repeated patterns: 1212, 123123, 112233 and the like.
        for period in [2, 3] where digits.count % period == 0 && digits.count > period {
            if digits.indices.allSatisfy({ digits[$0] == digits[$0 % period] }) {
                return "a repeated pattern is guessed first"
            }
        }
        if digits.count % 2 == 0, stride(from: 0, to: digits.count, by: 2).allSatisfy({ digits[$0] == digits[$0 + 1] })
        {
            return "a pattern of doubled digits is guessed first"
        }
        if commonPINs.contains(pin) { return "this PIN is among the most common ones" }
        return nil
    }

    /// Frequent PINs no rule above catches: years and dates people use, keypad lines, and the top
    /// of the published frequency lists.
    static let commonPINs: Set<String> = [
        "1004", "2000", "2001", "6969", "1313", "1010", "1122", "2580", "0852", "1470", "0741", "3690", "0963",
        "1357", "2468", "7531", "8642", "1379", "1397", "1590", "7777", "1984", "1990", "1999", "2020", "2021",
        "5683", "0007", "1110", "1221", "4321",
        "159753", "147258", "258369", "789456", "696969", "131313", "102030", "110011", "123321", "112233",
        "121212", "123123", "007007", "101010", "520520", "521521", "159357", "147852", "987654",
    ]
}
