import CountersignAPI
import CountersignStore
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// One client's Server-Sent Events stream of its account's security events (`GET /account/events`):
/// each event recorded after the stream opened (or after `Last-Event-ID`) as an unnamed event with
/// `id: <event id>` and `data: <AccountEvent>`, so an open app learns at once that a key was bound,
/// a new device signed in, the PIN was reset or the number changed. The store is read every
/// `pollSeconds` (events are rare; any server process may record one); the stream ends with its
/// session, at shutdown, or after `maxSeconds` (the client reconnects with `Last-Event-ID`).
struct AccountEventStream: Sendable {
    let accounts: AccountService
    let database: any Database
    let userId: String
    let token: String
    /// Events after this one (by time, then id); nil: only events from now on.
    let lastEventId: String?
    let pollSeconds: Int64
    let maxSeconds: Int64

    func write(to writer: inout any ResponseBodyWriter) async throws {
        let (wake, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let timer = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(pollSeconds))
                ring.yield()
            }
        }
        defer { timer.cancel() }
        let shutdown = Task {
            try? await gracefulShutdown()
            ring.yield()
        }
        defer { shutdown.cancel() }
        let loggedOut = accounts.sessionSignals.observe(userId: userId) { ring.yield() }
        defer { loggedOut.cancel() }
        var cursor = try await database.read { sql in
            try await sql.accountEvents.cursor(userId: userId, after: lastEventId)
        }
        let deadline = ContinuousClock.now + .seconds(maxSeconds)
        var signals = wake.makeAsyncIterator()
        try await writer.write(ByteBuffer(string: ": account events\n\n"))
        while ContinuousClock.now < deadline, !Task.isShuttingDownGracefully,
            try await accounts.userId(forToken: token) == userId
        {
            let after = cursor
            let fresh = try await database.read { sql in try await sql.accountEvents.after(after, userId: userId) }
            for (event, position) in fresh {
                let data = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "id: \(event.id)\ndata: \(data)\n\n"))
                cursor = position
            }
            if fresh.isEmpty { try await writer.write(ByteBuffer(string: ": keep-alive\n\n")) }
            guard await signals.next() != nil else { break }
        }
        try await writer.finish(nil)
    }
}
