/// An incremental `text/event-stream` parser (HTML Living Standard §9.2.6): feed it bytes in any
/// chunks, split anywhere (inside a line, a CRLF or the BOM), and it returns each complete event.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var bomChecked = false
    private var pendingStart: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var lastEventId: String?
    private var retry: Int?

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A parser at the start of a stream.
    public init() {}

    /// Consumes `chunk` and returns the events it completed, in order.
    public mutating func feed(_ chunk: [UInt8]) -> [ServerSentEvent] {
        var bytes = chunk[...]
        if !bomChecked {
            // A stream may start with one UTF-8 BOM, which is dropped; it can arrive a byte at a time.
            pendingStart += bytes
            if pendingStart.count < 3, Self.bom.starts(with: pendingStart) { return [] }
            bomChecked = true
            bytes = (pendingStart.starts(with: Self.bom) ? pendingStart.dropFirst(3) : pendingStart[...])
            pendingStart = []
        }
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCR:
                afterCR = false // the LF of a CRLF whose CR already ended the line
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                afterCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// Processes one complete line; an empty line dispatches the event gathered so far.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil } // a comment, e.g. a keep-alive
        let name: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "data":
            if hasData { data.append(UInt8(ascii: "\n")) }
            data += value
            hasData = true
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id" where !value.contains(0):
            lastEventId = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            retry = Int(String(decoding: value, as: UTF8.self))
        default:
            break // unknown fields are ignored
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = []
            hasData = false
            eventType = ""
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            id: lastEventId, event: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self), retry: retry)
    }

    /// The events in `bytes`, parsed as they arrive. An event the stream ends in the middle of is
    /// discarded, as the standard requires; an error in `bytes` ends the events with that error.
    public static func events(in bytes: AsyncThrowingStream<[UInt8], any Error>) -> AsyncThrowingStream<
        ServerSentEvent, any Error
    > {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let pump = Task {
            var parser = ServerSentEventParser()
            do {
                for try await chunk in bytes {
                    for event in parser.feed(chunk) { continuation.yield(event) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return events
    }
}
