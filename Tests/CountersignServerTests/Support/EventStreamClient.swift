import AsyncHTTPClient
import CountersignAPI
import Foundation
import NIOCore
import NIOHTTP1

/// One Server-Sent Event as the test read it.
struct ReceivedEvent: Sendable, Equatable {
    let id: Int64?
    let event: String?
    let data: String

    /// The transfer document the event carries.
    func document() throws -> TransferDocument {
        try JSONDecoder().decode(TransferDocument.self, from: Data(data.utf8))
    }
}

/// Reads a `text/event-stream` response in the background and collects its events, so a test can
/// wait (with a deadline) for what it expects. `close()` drops the connection.
final class EventStreamClient: Sendable {
    let status: Int
    let contentType: String?
    private let state = Collected()
    private let reader: Task<Void, Never>

    private actor Collected {
        var events: [ReceivedEvent] = []
        var comments = 0
        var ended = false
        func append(_ event: ReceivedEvent) { events.append(event) }
        func comment() { comments += 1 }
        func end() { ended = true }
    }

    static func open(_ client: APIClient, path: String, token: String? = nil, cookie: String? = nil, lastEventID: String? = nil) async throws -> EventStreamClient {
        var request = HTTPClientRequest(url: client.baseURL + path)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await client.http.execute(request, timeout: .seconds(120))
        return EventStreamClient(response: response)
    }

    private init(response: HTTPClientResponse) {
        status = Int(response.status.code)
        contentType = response.headers.first(name: "Content-Type")
        let state = self.state
        reader = Task {
            var buffer = ""
            var id: Int64?, event: String?, data: [String] = []
            do {
                for try await chunk in response.body {
                    buffer += String(buffer: chunk)
                    while let newline = buffer.firstIndex(of: "\n") {
                        let line = String(buffer[..<newline])
                        buffer = String(buffer[buffer.index(after: newline)...])
                        if line.isEmpty {
                            if !data.isEmpty { await state.append(ReceivedEvent(id: id, event: event, data: data.joined(separator: "\n"))) }
                            (id, event, data) = (nil, nil, [])
                        } else if line.hasPrefix(":") {
                            await state.comment()
                        } else if line.hasPrefix("id: ") {
                            id = Int64(line.dropFirst(4))
                        } else if line.hasPrefix("event: ") {
                            event = String(line.dropFirst(7))
                        } else if line.hasPrefix("data: ") {
                            data.append(String(line.dropFirst(6)))
                        }
                    }
                }
            } catch {}
            await state.end()
        }
    }

    /// Waits until `done(events)` holds or `timeout` passes; returns the events either way.
    func wait(timeout: Duration = .seconds(10), until done: @Sendable ([ReceivedEvent]) -> Bool) async -> [ReceivedEvent] {
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
    var comments: Int { get async { await state.comments } }

    /// Drops the connection.
    func close() { reader.cancel() }
}
