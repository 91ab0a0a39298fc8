/// Reads the `payment` member of clientDataJSON (Secure Payment Confirmation) with the same strictness as
/// `ClientDataJSONParser`: objects only where SPC has objects, strings only where it has strings, each
/// string at most `maximumStringBytes`, a checked member at most once, anything else skipped and validated.
enum PaymentMemberParser {
    /// Longer than any rpId, origin, name or amount; room for a small `data:` icon. The whole
    /// clientDataJSON is bounded by the caller (the server's base64url limit).
    static let maximumStringBytes = 8_192

    /// The object at `json.index`, or nil when it is not one of SPC's shape.
    static func parse(_ json: inout JSONScanner) -> CollectedPaymentData? {
        var data = CollectedPaymentData()
        let complete = members(&json, keys: ["rpId", "topOrigin", "payeeName", "payeeOrigin", "total", "instrument"]) {
            key, json in
            switch key {
            case "total":
                var currency: String?
                var value: String?
                guard
                    members(
                        &json, keys: ["currency", "value"],
                        { key, json in
                            guard let text = string(&json) else { return false }
                            if key == "currency" { currency = text } else { value = text }
                            return true
                        }), let currency, let value
                else { return false }
                data.total = .init(currency: currency, value: value)
            case "instrument":
                var displayName: String?
                var icon: String?
                guard
                    members(
                        &json, keys: ["displayName", "icon"],
                        { key, json in
                            guard let text = string(&json) else { return false }
                            if key == "displayName" { displayName = text } else { icon = text }
                            return true
                        }), let displayName, let icon
                else { return false }
                data.instrument = .init(displayName: displayName, icon: icon)
            default:
                guard let text = string(&json) else { return false }
                switch key {
                case "rpId": data.rpId = text
                case "topOrigin": data.topOrigin = text
                case "payeeName": data.payeeName = text
                default: data.payeeOrigin = text
                }
            }
            return true
        }
        return complete ? data : nil
    }

    /// A string of at most `maximumStringBytes` bytes.
    private static func string(_ json: inout JSONScanner) -> String? {
        guard let text = json.stringValue(), text.utf8.count <= maximumStringBytes else { return nil }
        return text
    }

    /// Walks one object: each of `keys` goes to `read` (once at most), any other member is skipped.
    private static func members(_ json: inout JSONScanner, keys: [String], _ read: (String, inout JSONScanner) -> Bool)
        -> Bool
    {
        var seen = Set<String>()
        return json.members { key, json in
            guard keys.contains(key) else { return json.skipValue(depth: 3) }
            return seen.insert(key).inserted && read(key, &json)
        }
    }
}
