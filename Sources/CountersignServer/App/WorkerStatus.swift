import ServiceLifecycle
import Synchronization

/// Which background workers are running, for `/health/ready`: a worker counts from the moment its
/// `run()` starts until it returns or throws (at graceful shutdown, or if it fails).
package final class WorkerStatus: Sendable {
    private let running = Mutex<[String: Bool]>([:])

    package init() {}

    /// Each registered worker by name: true while it runs.
    package var snapshot: [String: Bool] { running.withLock { $0 } }

    /// `service`, reporting here under `name` while it runs.
    package func tracking(_ service: some Service, as name: String) -> some Service {
        running.withLock { $0[name] = false }
        return TrackedService(name: name, base: service, status: self)
    }

    fileprivate func set(_ name: String, running value: Bool) {
        running.withLock { $0[name] = value }
    }
}

/// A service that tells a `WorkerStatus` when it starts and stops.
private struct TrackedService<Base: Service>: Service {
    let name: String
    let base: Base
    let status: WorkerStatus

    func run() async throws {
        status.set(name, running: true)
        defer { status.set(name, running: false) }
        try await base.run()
    }
}
