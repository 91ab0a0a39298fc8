import CountersignClient
import Synchronization
import Testing

/// A transport that answers from a script, in order, and fails the test on any request the script
/// did not expect (wrong method or path, or one too many).
final class ScriptedTransport: HTTPTransport {
    /// One expected request and what to answer.
    struct Step: Sendable {
        enum Answer: Sendable {
            case response(TransportResponse)
            case stream(status: Int, chunks: [[UInt8]], end: StreamEnd)
            case live(AsyncThrowingStream<[UInt8], any Error>)
            case held(TransportResponse, gate: Channel<Void>)
            case noAnswer
        }
        var method: String
        var path: String
        var answer: Answer
        var sourceLocation: SourceLocation
    }

    /// What a scripted event stream does after its chunks.
    enum StreamEnd: Sendable {
        /// Stays open, as the server's does until a final status; it ends when the reader stops.
        case open
        /// Closes cleanly.
        case close
        /// Drops with an error, like a lost connection.
        case drop
    }

    struct Unexpected: Error {}
    struct ConnectionLost: Error {}

    private let steps: Mutex<[Step]>
    private let sent = Mutex<[TransportRequest]>([])
    private let open = OpenCount()

    init() { steps = Mutex([]) }

    /// Expects `method path` next and answers it with `status` and `body`.
    func expect(
        _ method: String, _ path: String, status: Int = 200, json body: String = "{}", headers: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        append(
            Step(
                method: method, path: path,
                answer: .response(TransportResponse(status: status, headers: headers, body: Array(body.utf8))),
                sourceLocation: sourceLocation))
    }

    /// Expects `method path` next and answers it with `status` and `body` once the test sends on `gate`.
    func expectHeld(
        _ method: String, _ path: String, until gate: Channel<Void>, status: Int = 200, json body: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        append(
            Step(
                method: method, path: path,
                answer: .held(TransportResponse(status: status, body: Array(body.utf8)), gate: gate),
                sourceLocation: sourceLocation))
    }

    /// Expects `method path` next and lets the connection fail without an answer.
    func expectNoAnswer(_ method: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        append(Step(method: method, path: path, answer: .noAnswer, sourceLocation: sourceLocation))
    }

    /// Expects a streaming `GET path` and sends `chunks`, then does `end` (an error answer closes).
    func expectStream(
        _ path: String, status: Int = 200, chunks: [String], end: StreamEnd? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let end = end ?? ((200..<300).contains(status) ? .open : .close)
        append(
            Step(
                method: "GET", path: path,
                answer: .stream(status: status, chunks: chunks.map { Array($0.utf8) }, end: end),
                sourceLocation: sourceLocation))
    }

    /// Expects a streaming `GET path` whose body the test produces as it goes.
    func expectLiveStream(
        _ path: String, body: AsyncThrowingStream<[UInt8], any Error>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        append(Step(method: "GET", path: path, answer: .live(body), sourceLocation: sourceLocation))
    }

    /// Every request sent so far.
    var requests: [TransportRequest] { sent.withLock { $0 } }

    /// Records an issue for every scripted step that was never requested.
    func verifyAllUsed(sourceLocation: SourceLocation = #_sourceLocation) {
        for step in steps.withLock({ $0 }) {
            Issue.record(
                "expected request never sent: \(step.method) \(step.path)", sourceLocation: step.sourceLocation)
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        switch try next(request) {
        case .response(let response): return response
        case .held(let response, let gate):
            // Not cancelled with the caller: a real answer arrives even for a request nobody waits for.
            await Task { await gate.receive() }.value
            return response
        case .noAnswer: throw ConnectionLost()
        case .stream, .live: throw Unexpected()
        }
    }

    func stream(_ request: TransportRequest) async throws -> TransportStream {
        switch try next(request) {
        case .response(let response):
            return TransportStream(
                status: response.status, headers: response.headers, body: body([response.body], end: .close))
        case .stream(let status, let chunks, let end):
            return TransportStream(
                status: status, headers: ["Content-Type": "text/event-stream"], body: body(chunks, end: end))
        case .live(let body):
            return TransportStream(status: 200, headers: ["Content-Type": "text/event-stream"], body: body)
        case .noAnswer: throw ConnectionLost()
        case .held: throw Unexpected()
        }
    }

    private func append(_ step: Step) { steps.withLock { $0.append(step) } }

    private func next(_ request: TransportRequest) throws -> Step.Answer {
        sent.withLock { $0.append(request) }
        let step: Step? = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let step else {
            Issue.record("unexpected request: \(request.method) \(request.path)")
            throw Unexpected()
        }
        guard step.method == request.method, step.path == request.path else {
            Issue.record(
                "expected \(step.method) \(step.path), got \(request.method) \(request.path)",
                sourceLocation: step.sourceLocation)
            throw Unexpected()
        }
        return step.answer
    }

    /// How many scripted event streams are still open: their reader has not let go of them.
    var openStreams: Int { open.value }

    private func body(_ chunks: [[UInt8]], end: StreamEnd) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { [open] continuation in
            open.add(1)
            continuation.onTermination = { _ in open.add(-1) }
            for chunk in chunks { continuation.yield(chunk) }
            switch end {
            case .open: break
            case .close: continuation.finish()
            case .drop: continuation.finish(throwing: ConnectionLost())
            }
        }
    }
}

/// A counter shared with the streams' termination handlers.
private final class OpenCount: Sendable {
    private let count = Mutex(0)

    func add(_ delta: Int) { count.withLock { $0 += delta } }

    var value: Int { count.withLock { $0 } }
}
