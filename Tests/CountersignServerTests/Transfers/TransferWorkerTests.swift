import AsyncHTTPClient
import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing

/// The background worker keeps going when one transfer cannot be processed.
@Suite("Transfer worker")
struct TransferWorkerTests {
    @Test(
        "an unreadable transfer is set aside after a few attempts; the queue behind it moves on",
        arguments: TestEngines.all)
    func poisonedTransfer(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup()
            let broken = try await server.quotedTransfer(payer, to: payee.phone)
            let healthy = try await server.quotedTransfer(payer, to: payee.phone)
            // Damage the older transfer so that it is first in the queue and cannot be decoded.
            try await server.database.transaction { sql in
                try await sql.execute(
                    "UPDATE transfers SET status = 'AUTHORIZED', quote = '{broken' WHERE id = $1", [.text(broken.id)])
            }
            #expect(try await server.authorizeTransfer(payer, healthy).status == 200)
            let done = try await server.awaitTransfer(payer, id: healthy.id) { $0.status.isFinal }
            #expect(done.status == .success)
            #expect(try await server.wallet(payee).balance == 10_000)
            let events = try await server.database.read { sql in
                try await sql.query("SELECT sequence FROM transfer_events WHERE transfer_id = $1", [.text(broken.id)])
            }
            #expect(events.count == 3, "the damaged transfer was not moved")
        }
    }
}

@Suite("Transfer streams and shutdown")
struct TransferStreamShutdownTests {
    @Test("a graceful shutdown ends open event streams instead of waiting for them", arguments: TestEngines.all)
    func shutdownEndsStreams(engine: DatabaseEngine) async throws {
        // The stream's own HTTP client outlives the server, so only the server can end the stream.
        let streamHTTP = HTTPClient(eventLoopGroupProvider: .singleton)
        let stream: (EventStreamClient, ContinuousClock.Instant)
        do {
            stream = try await LiveServer.run(engine) { server in
                let payer = try await server.fundedUser()
                let payee = try await server.signup()
                let document = try await server.quotedTransfer(payer, to: payee.phone)
                let client = APIClient(baseURL: server.client.baseURL, http: streamHTTP)
                let stream = try await EventStreamClient.open(
                    client, path: "/transfers/\(document.id)/events", token: payer.token)
                #expect(await stream.wait { !$0.isEmpty }.count == 1)
                return (stream, ContinuousClock.now)
            }
        } catch {
            // An HTTPClient left running traps in its deinit: shut it down on this path too.
            try? await streamHTTP.shutdown()
            throw error
        }
        let shutdownTook = ContinuousClock.now - stream.1
        #expect(await stream.0.waitForEnd(timeout: .seconds(10)), "the server ended the stream")
        stream.0.close()
        try await streamHTTP.shutdown()
        // Not a speed target: a shutdown that waited for the stream would wait for ever (its client
        // never leaves), so any generous bound tells the two apart; 15 s was once too tight for a
        // machine with other work on both cores.
        #expect(shutdownTook < .seconds(60), "shutdown waited \(shutdownTook) for the open stream")
    }
}
