import Foundation

/// JSON with its keys sorted and its slashes as they are: one value, one text. A transfer's stored
/// document, quote and challenge, the fingerprint of `POST /transfers` and that endpoint's answer are
/// written this way, so a retry is recognised and answered byte for byte like the first request.
enum CanonicalJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as canonical JSON text.
    static func string(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
