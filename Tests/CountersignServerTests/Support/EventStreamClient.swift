import CountersignAPI
import CountersignClient
import Foundation

/// One Server-Sent Event as the test read it.
struct ReceivedEvent: Sendable, Equatable {
    let id: Int64?
    /// The event type: `message` unless the stream named one.
    let event: String
    let data: String

    /// The transfer document the event carries.
    func document() throws -> TransferDocument {
        try JSONDecoder().decode(TransferDocument.self, from: Data(data.utf8))
    }
}

/// Reads a `text/event-stream` response in the background (the SDK's transport and parser) and
/// collects its events, so a test can wait (with a deadline) for what it expects. `close()` drops
/// the connection.
final class EventStreamClient: Sendable {
    let status: Int
    let contentType: String?
    private let state = Collected()
    private let reader: Task<Void, Never>

    private actor Collected {
        var events: [ReceivedEvent] = []
        var ended = false
        func append(_ event: ReceivedEvent) { events.append(event) }
        func end() { ended = true }
    }

    static func open(
        _ client: APIClient, path: String, token: String? = nil, cookie: String? = nil, lastEventID: String? = nil
    ) async throws -> EventStreamClient {
        var request = TransportRequest(method: "GET", path: path, headers: ["Accept": "text/event-stream"])
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        if let cookie { request.headers["Cookie"] = cookie }
        if let lastEventID { request.headers["Last-Event-ID"] = lastEventID }
        return EventStreamClient(response: try await client.transport().stream(request))
    }

    private init(response: TransportStream) {
        status = response.status
        contentType = response.headers["content-type"]
        let state = self.state
        reader = Task {
            do {
                for try await event in ServerSentEventParser.events(in: response.body) {
                    await state.append(
                        ReceivedEvent(id: event.id.flatMap { Int64($0) }, event: event.event, data: event.data))
                }
            } catch {}
            await state.end()
        }
    }

    /// Waits until `done(events)` holds or `timeout` passes; returns the events either way.
    func wait(timeout: Duration = .seconds(10), until done: @Sendable ([ReceivedEvent]) -> Bool) async
        -> [ReceivedEvent]
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let events = await state.events
            let ended = await state.ended
            if done(events) || ended { return events }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await state.events
    }

    /// Waits for the server to end the stream; true if it did within `timeout`.
    func waitForEnd(timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await state.ended { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    var events: [ReceivedEvent] { get async { await state.events } }

    /// Drops the connection.
    func close() { reader.cancel() }
}
