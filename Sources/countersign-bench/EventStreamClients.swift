import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Thousands of `GET /transfers/{id}/events` streams held open at once on a few SwiftNIO event-loop
/// threads (one thread per stream would not scale to 10,000), each recording its events into
/// `StreamArrivals` as they arrive.
final class EventStreamClients: Sendable {
    /// One stream to open: the transfer and the session token of its payer.
    struct Target: Sendable {
        let transferId: String
        let token: String
    }

    let group: MultiThreadedEventLoopGroup
    let arrivals: StreamArrivals
    let port: Int

    /// Clients on `threads` event-loop threads against the server on 127.0.0.1:`port`.
    init(port: Int, arrivals: StreamArrivals, threads: Int) {
        self.port = port
        self.arrivals = arrivals
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
    }

    /// Opens one stream per target (stream `i` is `targets[i]`), at most `inFlight` connects at a
    /// time so the server's listen backlog never overflows; returns the open channels.
    func open(_ targets: [Target], inFlight: Int = 64) async throws -> [any Channel] {
        var channels: [any Channel] = []
        channels.reserveCapacity(targets.count)
        for start in stride(from: 0, to: targets.count, by: inFlight) {
            let batch = try await withThrowingTaskGroup(of: (any Channel).self) { group in
                for index in start..<min(start + inFlight, targets.count) {
                    group.addTask { try await self.connect(index: index, target: targets[index]) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            channels += batch
        }
        return channels
    }

    private func connect(index: Int, target: Target) async throws -> any Channel {
        let arrivals = self.arrivals
        let port = self.port
        return try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        EventStreamHandler(index: index, target: target, port: port, arrivals: arrivals))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
    }

    /// Closes every channel and stops the threads.
    func shutdown(_ channels: [any Channel]) async {
        for channel in channels { channel.close(promise: nil) }
        try? await group.shutdownGracefully()
    }
}

/// Sends one stream's request when connected, then splits the body into Server-Sent Events
/// (blocks ended by a blank line) and records each.
private final class EventStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let index: Int
    let target: EventStreamClients.Target
    let port: Int
    let arrivals: StreamArrivals
    private var pending: [UInt8] = []

    init(index: Int, target: EventStreamClients.Target, port: Int, arrivals: StreamArrivals) {
        self.index = index
        self.target = target
        self.port = port
        self.arrivals = arrivals
    }

    private struct Head: Decodable {
        let status: String
        let sequence: Int64
    }

    static let finalStatuses: Set<String> = ["SUCCESS", "FAILED", "DECLINED", "EXPIRED", "CANCELLED"]

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1:\(port)")
        headers.add(name: "Authorization", value: "Bearer \(target.token)")
        headers.add(name: "Accept", value: "text/event-stream")
        let head = HTTPRequestHead(
            version: .http1_1, method: .GET, uri: "/transfers/\(target.transferId)/events", headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.status != .ok {
                arrivals.ended(index, "HTTP \(head.status.code)")
                context.close(promise: nil)
            }
        case .body(let bytes):
            let now = ContinuousClock.now
            pending += bytes.readableBytesView
            while let end = Self.blankLine(in: pending) {
                record(pending[..<end], at: now)
                pending.removeSubrange(..<(end + 2))
            }
        case .end:
            arrivals.ended(index, "the server ended the stream")
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        arrivals.ended(index, "connection closed")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        arrivals.ended(index, "\(error)")
        context.close(promise: nil)
    }

    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for position in 0..<(bytes.count - 1) where bytes[position] == 10 && bytes[position + 1] == 10 {
            return position
        }
        return nil
    }

    private func record(_ block: ArraySlice<UInt8>, at instant: ContinuousClock.Instant) {
        if block.first == UInt8(ascii: ":") {
            arrivals.keepAlive(index)
            return
        }
        for line in block.split(separator: 10) where line.starts(with: Array("data: ".utf8)) {
            guard let head = try? JSONDecoder().decode(Head.self, from: Data(line.dropFirst(6))) else {
                arrivals.ended(index, "an event the bench could not read")
                return
            }
            arrivals.event(
                index, sequence: head.sequence, status: head.status,
                final: Self.finalStatuses.contains(head.status), at: instant)
        }
    }
}
