import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes each log record as one line of JSON: `time` (ISO 8601, UTC, milliseconds), `level`,
/// `label`, `message`, then the metadata's keys in order, each value a string (nested metadata
/// flattened as its description). Metadata comes from the handler, its metadata provider (the
/// request's trace id) and the event, later ones winning. `countersign serve` uses it when standard
/// error is not a terminal, so a log collector gets records it can parse; on a terminal it keeps
/// swift-log's plain lines.
///
/// The line is built by hand into one byte buffer: a request's record is written on every request,
/// and `JSONSerialization` with a formatted `Date` cost about 120 µs a line (measured with
/// `countersign-bench flows`).
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    package var logLevel: Logger.Level = .info
    let label: String
    let output: JSONLogOutput

    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil, output: JSONLogOutput = .standardError
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        output.write(line(event, at: JSONLogLine.now()))
    }

    /// The record's line, newline included.
    func line(_ event: LogEvent, at time: JSONLogLine.Time) -> [UInt8] {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let own = event.metadata { fields.merge(own) { $1 } }
        var line = JSONLogLine()
        line.field("time", time: time)
        line.field("level", event.level.rawValue)
        line.field("label", label)
        line.field("message", event.message.description)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !Self.ownKeys.contains(key) {
            line.field(key, value.jsonLogText)
        }
        return line.finished()
    }

    /// The members every line starts with, which metadata does not repeat.
    private static let ownKeys: Set = ["time", "level", "label", "message"]
}

extension Logger.MetadataValue {
    /// The value as one string: strings as they are, anything else as its description.
    fileprivate var jsonLogText: String {
        switch self {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array, .dictionary: description
        }
    }
}

/// One JSON object being written as UTF-8 bytes, string members only.
struct JSONLogLine {
    /// A wall-clock instant: seconds since 1970 and the millisecond within the second.
    struct Time {
        var seconds: Int
        var milliseconds: Int
    }

    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    init() { bytes.reserveCapacity(320) }

    static func now() -> Time {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Time(seconds: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec) / 1_000_000)
    }

    mutating func field(_ key: String, _ value: String) {
        startField(key)
        appendQuoted(value)
    }

    /// `key: "2026-11-24T01:02:03.004Z"`.
    mutating func field(_ key: String, time: Time) {
        startField(key)
        var seconds = time_t(time.seconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(Int(parts.tm_year) + 1900, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), width: 2)
        bytes.append(UInt8(ascii: "."))
        appendDigits(time.milliseconds, width: 3)
        bytes.append(contentsOf: "Z\"".utf8)
    }

    consuming func finished() -> [UInt8] {
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    private mutating func startField(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `value` as a JSON string: quote, backslash and control characters escaped, the rest as UTF-8.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal, zero-padded to `width` digits (values here are never negative and fit).
    private mutating func appendDigits(_ value: Int, width: Int) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = max(value, 0)
        var index = start + width - 1
        while rest > 0 && index >= start {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}

/// Where JSON log lines go: one `write` per line under a lock, so lines from concurrent tasks never interleave.
package final class JSONLogOutput: Sendable {
    private let descriptor: Int32
    private let lock = Mutex<Void>(())

    package init(descriptor: Int32) { self.descriptor = descriptor }

    package static let standardError = JSONLogOutput(descriptor: STDERR_FILENO)

    func write(_ line: [UInt8]) {
        lock.withLock { _ in
            line.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    #if canImport(Glibc)
                        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                    #else
                        let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
                    #endif
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }
}
