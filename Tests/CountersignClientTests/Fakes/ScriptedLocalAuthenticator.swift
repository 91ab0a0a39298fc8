import CountersignClient
import Testing

/// A local authenticator answering with scripted results; a prompt beyond the script is a test failure.
actor ScriptedLocalAuthenticator: LocalAuthenticator {
    private let script: [Result<LocalAuthMethod, LocalAuthError>]
    private let delay: Duration
    /// The reasons prompted with, in order.
    private(set) var prompts: [String] = []

    init(_ script: [Result<LocalAuthMethod, LocalAuthError>], delay: Duration = .zero) {
        self.script = script
        self.delay = delay
    }

    func authenticate(reason: String) async throws -> LocalAuthMethod {
        guard prompts.count < script.count else {
            Issue.record("local authentication \(prompts.count + 1) was not scripted (script has \(script.count))")
            throw LocalAuthError.failed
        }
        prompts.append(reason)
        let answer = script[prompts.count - 1]
        if delay > .zero { try? await Task.sleep(for: delay) }
        return try answer.get()
    }
}

/// A local authenticator whose single prompt stays open until the test answers it.
actor GatedLocalAuthenticator: LocalAuthenticator {
    private var open: CheckedContinuation<LocalAuthMethod, any Error>?
    private var watchers: [CheckedContinuation<Void, Never>] = []
    private var prompted = false

    func authenticate(reason: String) async throws -> LocalAuthMethod {
        guard !prompted else {
            Issue.record("the gated authenticator was prompted twice")
            throw LocalAuthError.failed
        }
        prompted = true
        return try await withCheckedThrowingContinuation { continuation in
            open = continuation
            watchers.forEach { $0.resume() }
            watchers = []
        }
    }

    /// Returns once the prompt is showing.
    func untilPrompted() async {
        if open != nil { return }
        await withCheckedContinuation { watchers.append($0) }
    }

    /// Answers the showing prompt.
    func answer(_ method: LocalAuthMethod) {
        open?.resume(returning: method)
        open = nil
    }
}
