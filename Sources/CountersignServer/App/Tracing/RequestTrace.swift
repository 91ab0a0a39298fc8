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
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        let low = generator.next() as UInt64
        if high == 0 && low == 0 { high = 1 }
        // Written digit by digit into the string's own storage: one allocation, on every request.
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for digit in 0..<32 {
                let word = digit < 16 ? high : low
                buffer[digit] = hexDigits[Int(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit % 16))) & 0xF]
            }
            return 32
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
