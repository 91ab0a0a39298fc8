/// Amounts given with their currency, as an operator writes them in flags: `30EUR`, `50000NGN`,
/// `29.99 EUR`.
extension Currency {
    /// The currency a tagged amount names and the amount in its minor units; refuses a currency this
    /// build does not know, or an amount `parse` refuses.
    public static func parseTagged(_ typed: String) throws(AmountError) -> (currency: String, minor: Int64) {
        let text = typed.filter { $0 != " " }
        let code = String(text.suffix(3)).uppercased()
        guard text.count > 3, let currency = known[code] else {
            throw .notAnAmount(typed, example: "30EUR or 50000NGN")
        }
        return (code, try currency.parse(String(text.dropLast(3))))
    }
}
