import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`: the server and the operator commands that the
/// bench and the tests run.
///
/// Not Foundation's `Process`: on Linux (Swift 6.3.1) its `run()` lists `/proc/self/fd` with a
/// 256-byte copy of each directory entry and now and then reads past the end of glibc's buffer
/// (swift-corelibs-foundation#5472). The test suite, with hundreds of sockets open, crashed on it
/// about one run in five.
package final class ChildProcess: Sendable {
    /// The child's process id.
    package let pid: pid_t
    /// The exit status once the child has been reaped: its code, or 128 + the signal that ended it.
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` with exactly `environment`. Its stdin is /dev/null; stdout and stderr go
    /// to `outputPath` (created 0600, appended to), or to /dev/null. Signals start at their
    /// defaults, none blocked.
    package init(_ executable: String, _ arguments: [String], environment: [String: String], outputPath: String? = nil)
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard error == 0 else { throw HarnessError("cannot start \(executable): \(String(cString: strerror(error)))") }
        self.pid = pid
    }

    /// Runs `executable` to its end and returns its status and everything it wrote, waiting without
    /// holding a thread. Blocking one of Swift's pool threads (there are as many as cores) for a
    /// child's lifetime stalls every other task meanwhile: in the test suite, every other test's
    /// in-process server, whose transfers then missed their deadlines.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, output: String)
    {
        let outputPath = newOutputPath()
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try await ChildProcess(executable, arguments, environment: environment, outputPath: outputPath)
            .exited()
        return (status, written(to: outputPath))
    }

    /// `run`, blocking the calling thread until the child ends: for synchronous callers only.
    package static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String])
        throws -> (status: Int32, output: String)
    {
        let outputPath = newOutputPath()
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try ChildProcess(executable, arguments, environment: environment, outputPath: outputPath)
            .waitUntilExit()
        return (status, written(to: outputPath))
    }

    /// A path in the temporary directory for one child's stdout and stderr.
    private static func newOutputPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).out").path
    }

    /// What a child wrote to `path`, or nothing if it cannot be read.
    private static func written(to path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Whether the child is still running (reaping it if it has ended).
    package var isRunning: Bool { reap(blocking: false) == nil }

    /// The exit status if the child has ended, nil while it runs.
    package func poll() -> Int32? { reap(blocking: false) }

    /// Blocks until the child ends; its exit status.
    @discardableResult
    package func waitUntilExit() -> Int32 {
        while true {
            if let status = reap(blocking: true) { return status }
        }
    }

    /// Waits, without blocking a thread, until the child ends; its exit status.
    package func exited() async -> Int32 {
        while true {
            if let status = poll() { return status }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// SIGTERM.
    package func terminate() { signal(SIGTERM) }

    /// Sends `signal` if the child still runs.
    package func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// SIGTERM (a server drains and exits), up to `graceSeconds`, then SIGKILL; the exit status.
    /// Blocking, so it also works where no task can run.
    @discardableResult
    package func stop(graceSeconds: Double = 5) -> Int32 {
        terminate()
        for _ in 0..<Int(graceSeconds * 100) {
            if let status = poll() { return status }
            usleep(10_000)
        }
        signal(SIGKILL)
        return waitUntilExit()
    }

    /// The exit status if the child has ended (reaping it once), else nil.
    private func reap(blocking: Bool) -> Int32? {
        exitStatus.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            guard result == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
            let signal = status & 0x7f
            known = signal == 0 ? (status >> 8) & 0xff : 128 + signal
            return known
        }
    }
}
