/// The app-open guard from the seed's soft-lock flow: biometric, else the local PIN, once per
/// session, entirely on the device.
///
/// Its only collaborator is the `LocalAuthenticator`, so it cannot make a network call: the soft
/// lock keeps a casual holder of an unlocked phone out of the app, and the transaction layer (a
/// server challenge signed by the device key) guards the money.
public actor SoftLock {
    private let authenticator: any LocalAuthenticator
    private let reason: String
    private let backgroundTimeout: Duration?
    private var unlockedWith: LocalAuthMethod?
    private var backgroundedAt: ContinuousClock.Instant?
    /// Concurrent `unlock()` calls share one prompt instead of stacking several.
    private var pendingUnlock: Task<LocalAuthMethod?, Never>?
    /// Raised by `lock()` and `logout()`, so a prompt that was already showing cannot unlock the new session.
    private var epoch = 0

    /// A soft lock prompting with `reason`; with a `backgroundTimeout`, returning from the
    /// background after at least that long locks again.
    public init(
        authenticator: any LocalAuthenticator, reason: String = "Unlock Countersign", backgroundTimeout: Duration? = nil
    ) {
        self.authenticator = authenticator
        self.reason = reason
        self.backgroundTimeout = backgroundTimeout
    }

    /// Whether this session is unlocked.
    public var isUnlocked: Bool { unlockedWith != nil }

    /// How this session was unlocked, if it is.
    public var unlockMethod: LocalAuthMethod? { unlockedWith }

    /// Unlocks the session: returns at once if it already is, otherwise runs the local
    /// authenticator once. `false` when the user cancelled or was not recognised.
    public func unlock() async -> Bool {
        if unlockedWith != nil { return true }
        let task: Task<LocalAuthMethod?, Never>
        if let pendingUnlock {
            task = pendingUnlock
        } else {
            task = Task { [authenticator, reason] in try? await authenticator.authenticate(reason: reason) }
            pendingUnlock = task
        }
        let startedIn = epoch
        let method = await task.value
        if pendingUnlock == task { pendingUnlock = nil }
        guard startedIn == epoch, let method else { return unlockedWith != nil }
        unlockedWith = method
        return true
    }

    /// Locks the session, e.g. from a "lock now" button; the next `unlock()` prompts again.
    public func lock() {
        epoch += 1
        unlockedWith = nil
        pendingUnlock = nil
    }

    /// Ends the session when the user signs out.
    public func logout() {
        lock()
        backgroundedAt = nil
    }

    /// Notes that the app went to the background at `now`.
    public func enteredBackground(at now: ContinuousClock.Instant = .now) {
        backgroundedAt = now
    }

    /// Notes that the app came back at `now`; locks if it was away for `backgroundTimeout` or longer.
    public func enteredForeground(at now: ContinuousClock.Instant = .now) {
        defer { backgroundedAt = nil }
        guard let backgroundTimeout, let backgroundedAt, backgroundedAt.duration(to: now) >= backgroundTimeout else {
            return
        }
        lock()
    }
}
