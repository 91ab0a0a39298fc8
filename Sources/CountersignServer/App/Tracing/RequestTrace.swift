import CountersignCodec
import Logging

/// The trace id of the request the current task serves, for every log line written while it runs.
package enum RequestTrace {
    /// Set by `RequestRecordMiddleware` for the span of one request.
    @TaskLocal package static var id: String?

    /// Adds `trace_id` to a log line written while a request runs; give it to `LoggingSystem.bootstrap`.
    package static let metadataProvider = Logger.MetadataProvider {
        guard let id else { return [:] }
        return ["trace_id": .string(id)]
    }

    /// A random W3C trace id: 16 bytes as 32 lowercase hex digits, never all zero.
    static func newIdentifier() -> String {
        var bytes = SecureRandom.bytes(16)
        if bytes.allSatisfy({ $0 == 0 }) { bytes[15] = 1 }
        // Written digit by digit into the string's own storage: one allocation, on every request.
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = hexDigits[Int(byte >> 4)]
                buffer[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return 32
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
