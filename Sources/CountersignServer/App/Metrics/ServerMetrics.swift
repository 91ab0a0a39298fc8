import CoreMetrics
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// server's own (not the process-global `MetricsSystem`: many servers run in one test process) and
/// served on the metrics listener (`MetricsEndpoint`). Every series is named `countersign_…`; its
/// labels take values from small fixed sets (route templates, never paths; outcome codes), so no
/// request can make the registry grow. docs/operations.md "Metrics" lists them.
///
/// Handles are made once per label set and kept: a request looks one up under a lock and records.
package final class ServerMetrics: Sendable {
    /// The Prometheus registry the series live in.
    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Every handle made, by series name and label values (counters, timers and gauges alike).
    private let handles = Mutex<[HandleKey: AnyObject]>([:])
    private let streams: CoreMetrics.Meter
    private let totals = Mutex(MetricsHeadline())
    /// The request counter and duration histogram of each method, route and status seen.
    private let requestSeries = Mutex<[RequestSeriesKey: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        self.streams = CoreMetrics.Meter(label: "countersign_sse_streams_open", factory: factory)
    }

    /// What `/metrics` answers: the Prometheus text format.
    package func exposition() -> [UInt8] { registry.emitToBuffer() }

    /// The numbers the operator console shows, since this process started.
    package var headline: MetricsHeadline { totals.withLock { $0 } }

    // MARK: Events

    /// One answered request: its method, route template (`unmatched` when no route matched), status
    /// and how long the server took to produce the answer.
    func request(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestSeriesKey(method: method, route: route, status: status)
        // One lookup by the request's own values; the labels are written only for a new series.
        let (count, time) = requestSeries.withLock { series in
            if let known = series[key] { return known }
            let labels = [("method", method), ("route", route), ("status", String(status))]
            let made = (
                counter("countersign_http_requests_total", labels),
                timer("countersign_http_request_duration_seconds", labels)
            )
            series[key] = made
            return made
        }
        count.increment()
        time.recordNanoseconds(duration.nanoseconds)
        totals.withLock {
            $0.requests += 1
            if status >= 500 { $0.serverErrors += 1 }
        }
    }

    /// A payment reached an outcome: `kind` is `topup`, `transfer` or `order_payment`; `outcome` is
    /// `completed`, `failed` (a supplier or provider said no, nothing kept), `pending`, or the
    /// stable code it was refused with.
    func payment(kind: String, outcome: String) {
        counter("countersign_payments_total", [("kind", kind), ("outcome", outcome)]).increment()
        totals.withLock { $0.payments[kind + " " + outcome, default: 0] += 1 }
    }

    /// A payment authorization was judged: `factor` `biometric` or `pin`, `outcome` `accepted` or
    /// the refusal's code.
    func authorization(factor: String, outcome: String) {
        counter("countersign_authorizations_total", [("factor", factor), ("outcome", outcome)]).increment()
    }

    /// A failure locked an account: `kind` `payment` (payment authorization) or `pin`.
    func lockout(kind: String) {
        counter("countersign_lockouts_total", [("kind", kind)]).increment()
        totals.withLock { $0.lockouts += 1 }
    }

    /// A request refused with 429 by the rate limits, by route template.
    func rateLimited(route: String) {
        counter("countersign_rate_limited_total", [("route", route)]).increment()
        totals.withLock { $0.rateLimited += 1 }
    }

    /// A retried request answered from its stored `Idempotency-Key` answer, by route template.
    func idempotentReplay(route: String) {
        counter("countersign_idempotent_replays_total", [("route", route)]).increment()
    }

    /// A WebAuthn challenge issued: `purpose` `payment`, `transfer`, `registration` or `login`.
    func challengeIssued(purpose: String) {
        counter("countersign_challenges_issued_total", [("purpose", purpose)]).increment()
    }

    /// A single-use payment token issued after a verified assertion.
    func tokenIssued() {
        counter("countersign_tokens_issued_total", []).increment()
    }

    /// What a background worker found waiting on its last pass: `worker` `pending_top_ups` or `transfers`.
    func backlog(worker: String, count: Int) {
        gauge("countersign_worker_backlog", [("worker", worker)]).record(count)
        totals.withLock { $0.backlog[worker] = count }
    }

    /// The timers of one kind of database work, `operation` `transaction`, `single` (one statement that
    /// commits on its own) or `read`: looked up once
    /// by the metered store, which records every unit of work in them.
    func databaseTimers(operation: String, engine: String) -> DatabaseTimers {
        let labels = [("operation", operation), ("engine", engine)]
        return DatabaseTimers(
            wait: timer("countersign_db_wait_seconds", labels),
            duration: timer("countersign_db_duration_seconds", labels))
    }

    /// The counter of SQL statements run on `engine` (`BEGIN` and `COMMIT` not included: one each
    /// per transaction on PostgreSQL, which `countersign_db_duration_seconds_count` counts).
    func statements(engine: String) -> CoreMetrics.Counter {
        counter("countersign_db_statements_total", [("engine", engine)])
    }

    /// A text message handled by the SMS dispatcher: `kind` says what it was (`code.signup`,
    /// `notice.key_bound`, …), `outcome` `sent`, `failed` or `dropped` (the queue was full).
    func sms(kind: String, outcome: String) {
        counter("countersign_sms_total", [("kind", kind), ("outcome", outcome)]).increment()
    }

    /// One webhook attempt: `outcome` `delivered`, `retry` (it will be tried again), `failed` (given
    /// up after the retry window) or `refused` (the target's address is not allowed).
    func webhookAttempt(outcome: String) {
        counter("countersign_webhook_attempts_total", [("outcome", outcome)]).increment()
    }

    /// A one-time code judged: `purpose` as asked, `outcome` `accepted` or the refusal's code.
    func codeCheck(purpose: String, outcome: String) {
        counter("countersign_code_checks_total", [("purpose", purpose), ("outcome", outcome)]).increment()
    }

    /// A live transfer stream (server-sent events) opened; `streamClosed` when it ends.
    func streamOpened() {
        streams.increment()
        totals.withLock { $0.streamsOpen += 1 }
    }

    func streamClosed() {
        streams.decrement()
        totals.withLock { $0.streamsOpen -= 1 }
    }

    // MARK: Handles

    private struct RequestSeriesKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct HandleKey: Hashable {
        let name: String
        let labels: [String]
    }

    private func counter(_ name: String, _ labels: [(String, String)]) -> CoreMetrics.Counter {
        handle(name, labels) { CoreMetrics.Counter(label: name, dimensions: labels, factory: factory) }
    }

    private func timer(_ name: String, _ labels: [(String, String)]) -> CoreMetrics.Timer {
        handle(name, labels) { CoreMetrics.Timer(label: name, dimensions: labels, factory: factory) }
    }

    private func gauge(_ name: String, _ labels: [(String, String)]) -> CoreMetrics.Gauge {
        handle(name, labels) { CoreMetrics.Gauge(label: name, dimensions: labels, factory: factory) }
    }

    /// The handle for `name` with `labels`, made by `make` the first time.
    private func handle<Handle: AnyObject>(
        _ name: String, _ labels: [(String, String)], make: () -> Handle
    ) -> Handle {
        let key = HandleKey(name: name, labels: labels.map(\.1))
        return handles.withLock { made in
            if let handle = made[key] as? Handle { return handle }
            let handle = make()
            made[key] = handle
            return handle
        }
    }
}

/// `countersign_db_wait_seconds` and `countersign_db_duration_seconds` for one kind of database work.
struct DatabaseTimers: Sendable {
    let wait: CoreMetrics.Timer
    let duration: CoreMetrics.Timer

    /// One unit of work: `wait` until its body started (a connection, SQLite's writer, `BEGIN`),
    /// `duration` from the call to the commit.
    func record(wait: Duration, duration: Duration) {
        self.wait.recordNanoseconds(wait.nanoseconds)
        self.duration.recordNanoseconds(duration.nanoseconds)
    }
}

/// This process's headline numbers since it started, for the operator console.
package struct MetricsHeadline: Sendable, Equatable {
    package var requests = 0
    package var serverErrors = 0
    package var lockouts = 0
    package var rateLimited = 0
    package var streamsOpen = 0
    /// Payments by `"<kind> <outcome>"`.
    package var payments: [String: Int] = [:]
    /// Each worker's backlog on its last pass.
    package var backlog: [String: Int] = [:]
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowed ? .max : sum
    }
}
