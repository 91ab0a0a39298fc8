import Foundation
import Logging
import Synchronization

/// Writes each log record as one line of JSON: `time` (ISO 8601, UTC, milliseconds), `level`,
/// `label`, `message`, then the metadata's keys, each value a string (nested metadata flattened as
/// its description). `countersign serve` uses it when standard error is not a terminal, so a log
/// collector gets records it can parse; on a terminal it keeps swift-log's plain lines.
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    let label: String
    let output: JSONLogOutput

    package init(label: String, output: JSONLogOutput = .standardError) {
        self.label = label
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
        fields["time"] = Self.timestamp(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        // Keys sorted: lines of one kind read alike; JSONSerialization escapes every string.
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        output.write(data + [0x0A])
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// Where JSON log lines go: one `write` per line under a lock, so lines from concurrent tasks never interleave.
package final class JSONLogOutput: Sendable {
    private let descriptor: Int32
    private let lock = Mutex<Void>(())

    package init(descriptor: Int32) { self.descriptor = descriptor }

    package static let standardError = JSONLogOutput(descriptor: STDERR_FILENO)

    func write(_ line: Data) {
        lock.withLock { _ in
            line.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }
}
