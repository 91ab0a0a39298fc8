import CountersignClient
import Foundation
import Synchronization
import Testing

/// A redirect handler answering with the scripted outcomes in order; a redirect beyond the script
/// fails the test.
final class ScriptedRedirectHandler: RedirectHandler {
    private let outcomes: Mutex<[RedirectOutcome]>
    private let seen = Log<URL>()

    init(_ outcomes: RedirectOutcome...) { self.outcomes = Mutex(outcomes) }

    init(outcomes: [RedirectOutcome]) { self.outcomes = Mutex(outcomes) }

    /// The URLs opened, in order.
    var opened: [URL] { seen.all }

    func open(_ url: URL) async -> RedirectOutcome {
        seen.append(url)
        guard let outcome = outcomes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            Issue.record("unexpected redirect to \(url)")
            return .abandoned
        }
        return outcome
    }
}
