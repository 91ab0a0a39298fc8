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
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
