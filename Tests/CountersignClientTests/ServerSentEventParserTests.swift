import CountersignClient
import Testing

@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    static let stream =
        "\u{FEFF}: keep-alive\r\nid: 7\r\nevent: transfer\r\ndata: {\"a\":1,\r\ndata:\"b\":\"é\"}\r\n\r\n:ping\n\nretry: 1500\ndata\ndata: second\r\rdata: third\n\n"

    static let expected = [
        ServerSentEvent(id: "7", event: "transfer", data: "{\"a\":1,\n\"b\":\"é\"}"),
        ServerSentEvent(id: "7", event: "message", data: "\nsecond", retry: 1500),
        ServerSentEvent(id: "7", event: "message", data: "third"),
    ]

    /// Feeds `bytes` cut into pieces of `size` bytes and gathers the events.
    static func parse(_ bytes: [UInt8], size: Int) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var index = 0
        while index < bytes.count {
            events += parser.feed(Array(bytes[index..<min(index + size, bytes.count)]))
            index += size
        }
        return events
    }

    @Test(
        "the same events whatever the chunking: inside the BOM, a CRLF, a UTF-8 character",
        arguments: [1, 2, 3, 5, 7, 13, 1000])
    func chunkings(size: Int) {
        #expect(Self.parse(Array(Self.stream.utf8), size: size) == Self.expected)
    }

    @Test("every single split point gives the same events")
    func everySplit() {
        let bytes = Array(Self.stream.utf8)
        for split in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(Array(bytes[..<split])) + parser.feed(Array(bytes[split...]))
            #expect(events == Self.expected, "split at \(split)")
        }
    }

    @Test("a CR at the end of a chunk and the LF at the start of the next make one line end")
    func crlfAcrossChunks() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("data: x\r".utf8)).isEmpty)
        // Were the LF a second line end, this would dispatch an event already.
        #expect(parser.feed(Array("\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\r\n".utf8)) == [ServerSentEvent(data: "x")])
    }

    @Test("comments and blocks without data dispatch nothing; an unfinished event is held back")
    func nothingToDispatch() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(": hello\n\nevent: transfer\nid: 3\n\ndata: half".utf8)).isEmpty)
        #expect(parser.feed(Array("\n\n".utf8)) == [ServerSentEvent(id: "3", data: "half")])
    }

    @Test("only the first BOM is dropped; a byte that merely starts like one is kept")
    func bom() {
        var parser = ServerSentEventParser()
        #expect(
            parser.feed([0xEF, 0xBB, 0xBF] + Array("data: \u{FEFF}x\n\n".utf8)) == [ServerSentEvent(data: "\u{FEFF}x")])
        var other = ServerSentEventParser()
        #expect(other.feed(Array("data: y\n\n".utf8)) == [ServerSentEvent(data: "y")])
    }

    @Test("an id containing NUL is ignored; only one leading space of a value is removed")
    func fieldRules() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("id: 1\n\nid: 2\u{0}\ndata:  two spaces\n\n".utf8))
        #expect(events == [ServerSentEvent(id: "1", data: " two spaces")])
    }

    @Test("the async stream parses chunks as they arrive and passes on a dropped connection")
    func asyncStream() async throws {
        struct Dropped: Error {}
        let (bytes, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        continuation.yield(Array("data: a\n".utf8))
        continuation.yield(Array("\ndata: b".utf8))
        continuation.finish(throwing: Dropped())
        var received: [String] = []
        var failure: (any Error)?
        do {
            for try await event in ServerSentEventParser.events(in: bytes) { received.append(event.data) }
        } catch {
            failure = error
        }
        #expect(received == ["a"])
        #expect(failure is Dropped)
    }
}
