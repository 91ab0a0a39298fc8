import Logging
import Synchronization

/// A log handler that keeps every line, message and metadata, so a test can read what was logged.
struct RecordingLogHandler: LogHandler {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { _, new in new }
        lines.append(
            "\(event.level) \(event.message) \(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
        )
    }

    /// A trace-level logger recording into `lines`.
    static func logger(_ lines: Lines) -> Logger {
        Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines) }
    }
}
