import Foundation
import Testing
import WebAuthn
import WebAuthnVectors

/// Small helpers shared by the WebAuthn tests.
enum TestSupport {
    /// Bytes from a hex string (test literals only).
    static func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = string.startIndex
        while index < string.endIndex {
            let next = string.index(index, offsetBy: 2)
            bytes.append(UInt8(string[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// Decodes a shared vector file by name, e.g. `w3c-packed-es256.json`.
    static func vector(_ file: String) throws -> WebAuthnTestVector {
        let url = VectorFiles.directory.appendingPathComponent(file)
        let data = try #require(try? Data(contentsOf: url), "missing shared vector \(url.path)")
        return try JSONDecoder().decode(WebAuthnTestVector.self, from: data)
    }

    /// Decodes base64url that a test knows to be valid.
    static func b64(_ text: String) throws -> [UInt8] {
        try #require(Base64URL.decode(text), "not base64url: \(text.prefix(40))")
    }

    /// The error a throwing verification produced, or `nil` if it succeeded.
    static func error<T>(_ body: () throws(WebAuthnError) -> T) -> WebAuthnError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// The relying party of the device-authenticator tests.
    static let relyingParty = RelyingParty(
        id: "pay.countersign.test", name: "Countersign", origins: ["https://pay.countersign.test"])
}
