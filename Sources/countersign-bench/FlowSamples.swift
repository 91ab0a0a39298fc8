import Synchronization

/// How long each call of one flow took (HTTP round trip, body included), and the whole flow
/// (client signing and JSON included).
struct FlowTimings: Sendable {
    /// The calls' round trips (no verify in a two-call flow) and the whole flow.
    let options: Duration
    let verify: Duration?
    let topUp: Duration
    let flow: Duration
}

/// What one client measured; clients merge theirs at the end, so the hot loop shares nothing.
struct FlowSamples: Sendable {
    /// Milliseconds per call and per whole flow, one entry per completed measured flow.
    var options: [Double] = []
    var verify: [Double] = []
    var topUp: [Double] = []
    var flow: [Double] = []
    /// Failures in the measured window, by "call status code", e.g. `topup 422 insufficient_funds`.
    var errors: [String: Int] = [:]
    /// Flows (completed or failed) during the warm-up, which are not counted.
    var warmupFlows = 0
    var warmupErrors = 0

    /// Completed flows in the measured window.
    var flows: Int { flow.count }

    /// Records one completed measured flow.
    mutating func record(_ timings: FlowTimings) {
        options.append(timings.options.milliseconds)
        if let verify = timings.verify { self.verify.append(verify.milliseconds) }
        topUp.append(timings.topUp.milliseconds)
        flow.append(timings.flow.milliseconds)
    }

    /// Adds another client's samples to these.
    mutating func merge(_ other: FlowSamples) {
        options += other.options
        verify += other.verify
        topUp += other.topUp
        flow += other.flow
        errors.merge(other.errors, uniquingKeysWith: +)
        warmupFlows += other.warmupFlows
        warmupErrors += other.warmupErrors
    }
}

/// When clients warm up, measure and stop, and how many flows they may start in all: the load
/// is bounded in both time and count.
struct FlowWindow: Sendable {
    /// Flows started before this are warm-up; none start after `end`.
    let measureFrom: ContinuousClock.Instant
    let end: ContinuousClock.Instant
}

/// The shared cap on flows started, across all clients.
final class FlowBudget: Sendable {
    private let remaining: Atomic<Int>

    /// A budget of `flows` flows.
    init(_ flows: Int) {
        remaining = Atomic(flows)
    }

    /// Takes one flow from the budget; false once it is spent.
    func take() -> Bool {
        remaining.subtract(1, ordering: .relaxed).newValue >= 0
    }

    /// Whether the cap stopped the clients (then the window was not fully loaded).
    var isSpent: Bool { remaining.load(ordering: .relaxed) < 0 }
}

/// Why a flow stopped, as the key errors are grouped by.
struct FlowFailure: Error {
    /// E.g. `topup 422 insufficient_funds` or `verify transport …`.
    let key: String
}
