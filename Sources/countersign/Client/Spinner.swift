import Foundation
import Synchronization

/// A spinner for long waits, on standard error so that standard output stays the screens: it
/// animates only when standard error is a terminal, and writes one plain line otherwise.
final class Spinner: Sendable {
    private struct Running {
        var message: String
        var task: Task<Void, Never>?
    }

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    private let animated: Bool
    private let running = Mutex<Running?>(nil)

    /// A spinner that animates when standard error is a terminal.
    init(animated: Bool = isatty(STDERR_FILENO) == 1) {
        self.animated = animated
    }

    /// Shows `message` while waiting; a second call with the same message changes nothing.
    func start(_ message: String) {
        let previous = running.withLock { current -> Task<Void, Never>?? in
            guard current?.message != message else { return .none }
            let old = current?.task
            current = Running(message: message, task: nil)
            return .some(old)
        }
        guard case .some(let old) = previous else { return }
        old?.cancel()
        guard animated else {
            Self.write("… \(message)\n")
            return
        }
        let task = Task.detached {
            var frame = 0
            while !Task.isCancelled {
                Self.write("\r\(Self.frames[frame % Self.frames.count]) \(message)\u{1B}[K")
                frame += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
        running.withLock { $0?.task = task }
    }

    /// Stops the spinner and clears its line.
    func stop() {
        let task = running.withLock { current -> Task<Void, Never>?? in
            guard let value = current else { return .none }
            current = nil
            return .some(value.task)
        }
        guard case .some(let stopped) = task else { return }
        stopped?.cancel()
        if animated { Self.write("\r\u{1B}[K") }
    }

    private static func write(_ text: String) {
        fflush(nil) // the screens printed so far come first, also when both outputs go to one pipe
        FileHandle.standardError.write(Data(text.utf8))
    }
}
