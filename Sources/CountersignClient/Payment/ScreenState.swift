import Synchronization

/// The state one screen renders, shared between the controller that moves it and the view that
/// shows it: read `value`, or subscribe with `onChange` (SwiftUI, a terminal) or `values()`.
///
/// It also holds the controller's running work, so that `reset` can stop it (closing any event
/// stream it watches) when the user leaves the screen.
public final class ScreenState<State: Sendable>: Sendable {
    private struct Storage {
        var value: State
        var observers: [@Sendable (State) -> Void] = []
        var continuations: [AsyncStream<State>.Continuation] = []
        var work: Task<Void, Never>?
        // Raised by every run and reset: work started before is stale.
        var generation: UInt64 = 0
    }

    private let initial: State
    private let storage: Mutex<Storage>

    /// A screen showing `initial`.
    public init(_ initial: State) {
        self.initial = initial
        self.storage = Mutex(Storage(value: initial))
    }

    /// What the screen shows now.
    public var value: State { storage.withLock { $0.value } }

    /// Calls `observer` with every later state, on the controller's task.
    public func onChange(_ observer: @escaping @Sendable (State) -> Void) {
        storage.withLock { $0.observers.append(observer) }
    }

    /// The current state, then every later one.
    public func values() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        storage.withLock {
            continuation.yield($0.value)
            $0.continuations.append(continuation)
        }
        return stream
    }

    /// Moves the screen to `value` and tells every observer. Work that `reset` (or a newer `run`)
    /// stopped can no longer change the screen, so a late answer never reappears on a screen the
    /// user has left.
    func set(_ value: State) {
        let running = CurrentWork.id
        let notify: ([@Sendable (State) -> Void], [AsyncStream<State>.Continuation])? = storage.withLock {
            if let running, running.screen == ObjectIdentifier(self), running.generation != $0.generation { return nil }
            $0.value = value
            return ($0.observers, $0.continuations)
        }
        guard let (observers, continuations) = notify else { return }
        for observer in observers { observer(value) }
        for continuation in continuations { continuation.yield(value) }
    }

    /// Runs `work` as the screen's current work and waits for it; `reset` cancels it.
    func run(_ work: @escaping @Sendable () async -> Void) async {
        let task = storage.withLock { storage in
            storage.work?.cancel()
            storage.generation &+= 1
            let id = CurrentWork.ID(screen: ObjectIdentifier(self), generation: storage.generation)
            let task = Task { await CurrentWork.$id.withValue(id) { await work() } }
            storage.work = task
            return task
        }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Stops the running work and shows the initial state again.
    func reset() {
        let work = storage.withLock { storage in
            defer { storage.work = nil }
            storage.generation &+= 1
            return storage.work
        }
        work?.cancel()
        set(initial)
    }
}

/// Which screen's work, of which generation, the current task runs.
private enum CurrentWork {
    struct ID: Sendable {
        var screen: ObjectIdentifier
        var generation: UInt64
    }

    @TaskLocal static var id: ID?
}

/// A screen of the payment flow that the finalize step returns to its blank state.
public protocol PaymentScreen: Sendable {
    /// Stops the screen's work (closing its event stream) and clears what it shows.
    func reset()
}
