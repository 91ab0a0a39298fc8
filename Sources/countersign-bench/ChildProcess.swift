import Foundation

/// A child process started with posix_spawn, stdin from /dev/null and stdout+stderr appended to a
/// file. The bench reaps its children itself (waitpid), so Foundation's `Process` is not used.
struct ChildProcess: Sendable {
    /// The child's process id.
    let pid: Int32

    /// Starts `executable` with `arguments` and exactly `environment`.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String], outputPath: String) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw BenchError("could not start \(executable): \(String(cString: strerror(result)))") }
        return ChildProcess(pid: pid)
    }

    /// The environment to pass on: this process's, without the variables the server would read
    /// in place of the flags the bench gives it (a stray DATABASE_URL would turn a SQLite run
    /// into a PostgreSQL one).
    static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in
            key != "DATABASE_URL" && key != "PORT" && !key.hasPrefix("COUNTERSIGN_")
        }
    }

    /// The exit status if the child has ended (reaping it), nil while it runs. A child killed by a
    /// signal reports 128 + the signal number, as shells do.
    func poll() -> Int32? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == 0 { return nil }
        if reaped < 0 { return -1 }  // already reaped
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Waits for the child to end and returns its exit status.
    func wait() async -> Int32 {
        while true {
            if let status = poll() { return status }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// SIGTERM (the server drains and exits), up to `graceSeconds`, then SIGKILL. Blocking, so it
    /// also works from a signal handler's queue.
    func stop(graceSeconds: Double = 5) {
        kill(pid, SIGTERM)
        for _ in 0..<Int(graceSeconds * 100) {
            if poll() != nil { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
