import CountersignClient
import CountersignHarness
import Foundation

/// One kept-alive HTTP/1.1 connection to the server under test, over a blocking socket on
/// 127.0.0.1, used by one load thread at a time.
///
/// The load clients use this rather than AsyncHTTPClient because the bench client shares the
/// machine's two cores with the server: with AsyncHTTPClient each request also paid an event-loop
/// hop and a task resumption, and the client took about 1 ms of CPU per flow, half of the whole
/// per-flow budget at 1,000 flows/s. A request here is one `send` and, usually, one `recv`. It
/// speaks just what the server answers: a status line, headers, and a body framed by
/// `Content-Length` or chunked transfer encoding. `LoopbackSocketTransport` puts it behind the SDK.
final class LoopbackHTTPConnection {
    private let port: Int
    private var socket: Int32 = -1
    /// Bytes read and not yet parsed start at `position`; what precedes it is consumed, and is
    /// dropped once per response rather than line by line (each drop moves what follows).
    private var pending: [UInt8] = []
    private var position = 0
    /// What each `recv` reads into, reused.
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    /// How long one `recv` may wait before the request counts as failed.
    static let timeoutSeconds = 10

    init(port: Int) {
        self.port = port
    }

    deinit { disconnect() }

    /// Sends one request and reads its whole response; reconnects first if the last exchange
    /// closed the connection. A failed exchange closes it, so the next request starts clean.
    func send(_ request: TransportRequest) throws -> TransportResponse {
        if socket < 0 { try connect() }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body = request.body { bytes += body }
        do {
            try write(bytes)
            let (response, keepAlive) = try readResponse()
            if !keepAlive { disconnect() }
            return response
        } catch {
            disconnect()
            throw error
        }
    }

    private func connect() throws {
        let descriptor = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackPort.address(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            throw BenchError("connect to 127.0.0.1:\(port): errno \(code)")
        }
        socket = descriptor
        pending = []
        position = 0
    }

    private func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
        pending = []
        position = 0
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Foundation.send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw BenchError("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads at least one more chunk from the socket into `pending`.
    private func fill() throws {
        let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if received == 0 { throw BenchError("the server closed the connection") }
        guard received > 0 else {
            throw BenchError(errno == EAGAIN ? "no answer within \(Self.timeoutSeconds) s" : "recv: errno \(errno)")
        }
        pending += chunk[0..<received]
    }

    /// Takes the next `count` pending bytes, reading more as needed.
    private func take(_ count: Int) throws -> ArraySlice<UInt8> {
        while pending.count - position < count { try fill() }
        let taken = pending[position..<position + count]
        position += count
        return taken
    }

    /// Takes one line ending in CRLF, without it.
    private func takeLine() throws -> String {
        var searchFrom = position
        while true {
            if let end = Self.crlf(in: pending, from: searchFrom) {
                let line = String(decoding: pending[position..<end], as: UTF8.self)
                position = end + 2
                return line
            }
            searchFrom = max(position, pending.count - 1)
            try fill()
            if pending.count - position > 64 * 1024 { throw BenchError("a response line longer than 64 KiB") }
        }
    }

    /// `text` without leading and trailing spaces and tabs (Foundation's `trimmingCharacters` took
    /// a tenth of the client's CPU here).
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    private static func crlf(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// The status line, the headers, and the body.
    private func readResponse() throws -> (TransportResponse, keepAlive: Bool) {
        pending.removeFirst(position)
        position = 0
        let statusLine = try takeLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw BenchError("not an HTTP/1.1 status line: \(statusLine.prefix(80))")
        }
        var headers: [String: String] = [:]
        var contentLength: Int?
        var chunked = false
        var keepAlive = true
        while true {
            let line = try takeLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw BenchError("malformed header: \(line.prefix(80))") }
            let name = line[..<colon].lowercased()
            let value = Self.trimmed(line[line.index(after: colon)...])
            switch name {
            case "content-length": contentLength = Int(value)
            case "transfer-encoding": chunked = value.lowercased().contains("chunked")
            case "connection": keepAlive = value.lowercased() != "close"
            default: break
            }
            headers[name] = value
        }
        var body: [UInt8] = []
        if chunked {
            while true {
                let sizeLine = try takeLine()
                guard let size = Int(Self.trimmed(sizeLine.split(separator: ";").first ?? ""), radix: 16) else {
                    throw BenchError("malformed chunk size: \(sizeLine.prefix(40))")
                }
                if size == 0 {
                    while try !takeLine().isEmpty {} // trailers
                    break
                }
                body += try take(size)
                guard try takeLine().isEmpty else { throw BenchError("chunk not followed by CRLF") }
            }
        } else if let contentLength {
            body = Array(try take(contentLength))
        } else if status != 204, status != 304 {
            throw BenchError("a \(status) response with neither Content-Length nor chunked encoding")
        }
        return (TransportResponse(status: status, headers: headers, body: body), keepAlive)
    }
}
