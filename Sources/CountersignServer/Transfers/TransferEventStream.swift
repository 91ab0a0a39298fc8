import CountersignCore
import CountersignStore
import Hummingbird
import NIOCore
import ServiceLifecycle

/// One client's Server-Sent Events stream of a transfer: every stored version after `lastSent`,
/// in order, each as an unnamed event (`message`, what `EventSource.onmessage` receives) with
/// `id: <sequence>` and `data: <document>`; then live versions as they are committed, until a
/// final status has been sent, the client goes away, or the stream reaches its maximum age (the
/// client reconnects with `Last-Event-ID` and loses nothing). A reconnect after the final version
/// is answered 204 by the controller, which tells `EventSource` to stop.
struct TransferEventStream: Sendable {
    let database: any Database
    let feed: TransferFeed
    let configuration: ServerConfiguration
    let transferId: String
    /// The last sequence the client has; nothing at or before it is sent.
    let lastSent: Int64
    /// The session the stream was opened with: when it ends (logout, log out everywhere, expiry),
    /// so does the stream.
    let session: Session

    struct Session: Sendable {
        let accounts: AccountService
        let userId: String
        let token: String

        var isLive: Bool {
            get async throws { try await accounts.userId(forToken: token) == userId }
        }
    }

    func write(to writer: inout any ResponseBodyWriter) async throws {
        let watch = feed.watch(transferId)
        defer { watch.cancel() }
        // At most 15 s between wake-ups, so a keep-alive goes out well inside clients' idle limits
        // (the SDK's is 30 s) even with a long fallback.
        let fallback = Duration.seconds(min(configuration.streamFallbackSeconds, 15))
        let deadline = ContinuousClock.now + .seconds(configuration.streamMaxSeconds)
        // The timer re-reads the store now and then, in case a signal was lost (a dropped LISTEN
        // connection), and lets the stream send keep-alives and notice its deadline.
        let timer = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: fallback)
                watch.ring()
            }
        }
        defer { timer.cancel() }
        let loggedOut = session.accounts.sessionSignals.observe(userId: session.userId) { watch.ring() }
        defer { loggedOut.cancel() }
        // A server shutting down ends its streams at once (clients reconnect elsewhere, with
        // Last-Event-ID), rather than holding the drain open for the stream's lifetime. A handler
        // rather than a task waiting on `gracefulShutdown()`: that is a task and an actor per stream.
        let done = try await withGracefulShutdownHandler {
            try await send(to: &writer, watch: watch, until: deadline)
        } onGracefulShutdown: {
            watch.ring()
        }
        if !done { try await writer.finish(nil) }
    }

    /// Sends versions as they come until the final one (true: the body is finished), or false when
    /// the deadline passes, the server shuts down, the session ends or the watch stops.
    private func send(
        to writer: inout any ResponseBodyWriter, watch: TransferWatch, until deadline: ContinuousClock.Instant
    )
        async throws -> Bool
    {
        var lastSent = self.lastSent
        var signals = watch.signals.makeAsyncIterator()
        while ContinuousClock.now < deadline, !Task.isShuttingDownGracefully, try await session.isLive {
            let after = lastSent
            let events = try await database.read { sql in
                try await sql.transfers.events(transferId: transferId, after: after)
            }
            if events.isEmpty {
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
            }
            for event in events {
                try await writer.write(ByteBuffer(string: "id: \(event.sequence)\ndata: \(event.document)\n\n"))
                lastSent = event.sequence
                if event.status.isFinal {
                    try await writer.finish(nil)
                    return true
                }
            }
            guard await signals.next() != nil else { break }
        }
        return false
    }
}
