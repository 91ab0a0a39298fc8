import Foundation
import Logging
import Testing

@testable import CountersignServer

@Suite("JSON log lines")
struct JSONLogLineTests {
    private func line(
        _ message: Logger.Message, metadata: Logger.Metadata = [:], handler: Logger.Metadata = [:],
        provider: Logger.MetadataProvider? = nil, at time: JSONLogLine.Time = .init(seconds: 0, milliseconds: 0)
    ) throws -> (text: String, object: [String: String]) {
        var log = JSONLogHandler(label: "test", metadataProvider: provider, output: JSONLogOutput(descriptor: -1))
        log.metadata = handler
        let event = LogEvent(
            level: .warning, message: message, metadata: metadata, source: "test", file: #fileID, function: #function,
            line: #line)
        let bytes = log.line(event, at: time)
        let text = try #require(String(bytes: bytes, encoding: .utf8))
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, Comment(rawValue: "one line: \(text)"))
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String]
        return (text, try #require(object, Comment(rawValue: text)))
    }

    @Test("quotes, backslashes, control characters and non-ASCII text survive a round trip through a JSON parser")
    func escaping() throws {
        let awkward = "say \"hi\"\\ \n\r\t\u{01}\u{1F}\u{7F} naïve ₦ 🙂 </script>"
        let (_, object) = try line("\(awkward)", metadata: ["k\"ey\n": .string(awkward)])
        #expect(object["message"] == awkward)
        #expect(object["k\"ey\n"] == awkward)
        #expect(object["level"] == "warning" && object["label"] == "test")
    }

    @Test(
        "the time is UTC ISO 8601 with milliseconds",
        arguments: [
            (0, 0, "1970-01-01T00:00:00.000Z"), (1_795_814_523, 7, "2026-11-27T21:22:03.007Z"),
            (951_782_400, 999, "2000-02-29T00:00:00.999Z"),
        ])
    func time(seconds: Int, milliseconds: Int, expected: String) throws {
        let (_, object) = try line("x", at: .init(seconds: seconds, milliseconds: milliseconds))
        #expect(object["time"] == expected)
    }

    @Test(
        "metadata: the event's over the provider's over the handler's, nested values as text; reserved keys stay the record's own"
    )
    func metadataOrder() throws {
        let provider = Logger.MetadataProvider { ["trace_id": "from-provider", "shared": "provider"] }
        let (text, object) = try line(
            "m", metadata: ["shared": "event", "list": .array(["a", "b"]), "message": "spoofed"],
            handler: ["shared": "handler", "handler_only": "h"], provider: provider)
        #expect(object["shared"] == "event")
        #expect(object["trace_id"] == "from-provider")
        #expect(object["handler_only"] == "h")
        #expect(object["list"] == #"["a", "b"]"#)
        #expect(object["message"] == "m")
        #expect(text.components(separatedBy: "\"message\"").count == 2, "one message key: \(text)")
    }
}
