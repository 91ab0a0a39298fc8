import CountersignHarness
import Foundation
import Synchronization

/// Makes sure the server child never outlives the bench: on SIGINT, SIGTERM or SIGHUP the child
/// is sent SIGTERM (it drains and exits by itself) before the bench exits.
///
/// A plain `sigaction` handler rather than a dispatch source: on Linux, libdispatch reads signals
/// through a signalfd that only sees signals blocked in every thread, and the bench's threads
/// already exist when the guard is installed. The handler only calls `kill` and `_exit`, which
/// are async-signal-safe.
enum ChildGuard {
    /// The pid to stop; 0 when there is none.
    fileprivate static let child = Atomic<Int32>(0)
    private static let installed = Atomic<Bool>(false)

    /// Starts guarding `process`. Installs the handlers on first use.
    static func watch(_ process: ChildProcess) {
        child.store(process.pid, ordering: .sequentiallyConsistent)
        guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = stopChildAndExit
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Stops guarding: the child was stopped the ordinary way.
    static func release() {
        child.store(0, ordering: .sequentiallyConsistent)
    }
}

/// The signal handler: SIGTERM to the child, then exit as the signal would have.
private func stopChildAndExit(_ signalNumber: Int32) {
    let pid = ChildGuard.child.exchange(0, ordering: .sequentiallyConsistent)
    if pid > 0 { kill(pid, SIGTERM) }
    _exit(128 + signalNumber)
}
