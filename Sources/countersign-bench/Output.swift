import Foundation

// How results leave the bench: progress lines as they happen, and JSON files at the end. (Tables
// are in TextTable.swift.)

/// Progress lines for the operator, written straight to the file descriptor so a log file or a
/// script watching the output (e.g. to attach strace or perf to the server) sees them at once,
/// not when stdout's buffer fills.
enum Console {
    /// Writes `line` and a newline to standard output, unbuffered.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Writes a result as pretty-printed JSON (`bench-results-<mode>.json` unless told otherwise; the
/// repository ignores `/bench-results*.json`).
enum ResultFile {
    /// The default path for a mode's results, in the current directory.
    static func defaultPath(mode: String) -> String { "bench-results-\(mode).json" }

    /// Encodes `result` and writes it to `path`, replacing any earlier file.
    static func write(_ result: some Encodable, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(result).write(to: URL(fileURLWithPath: path), options: .atomic)
        print("results written to \(path)")
    }
}
