import CountersignAPI
import CountersignClient
import CountersignCore
import Testing

@Suite("Transaction repository")
struct TransactionRepositoryTests {
    static let path = "/transfers/\(Fixture.transferId)/events"

    /// Every document of the stream, or the error that ended it.
    static func collect(_ stream: AsyncThrowingStream<TransferDocument, any Error>) async -> ([Int64], (any Error)?) {
        var sequences: [Int64] = []
        do {
            for try await document in stream { sequences.append(document.sequence) }
        } catch {
            return (sequences, error)
        }
        return (sequences, nil)
    }

    @Test("documents come in order and the stream finishes after a final status")
    func inOrderUntilFinal() async {
        let transport = ScriptedTransport()
        transport.expectStream(
            Self.path,
            chunks: [": keep-alive\n\n"]
                + (Fixture.upToQuote + [Fixture.document(.authorized, 4), Fixture.document(.success, 5)]).map(
                    Fixture.event))
        let (sequences, error) = await Self.collect(Fixture.repository(transport).documents(Fixture.transferId))
        #expect(sequences == [1, 2, 3, 4, 5])
        #expect(error == nil)
        #expect(transport.requests[0].header("Last-Event-ID") == nil)
        #expect(transport.requests[0].header("Authorization") == "Bearer tok")
        transport.verifyAllUsed()
    }

    @Test("a dropped connection is reopened with Last-Event-ID; a replayed or older version is not yielded again")
    func reconnectsWithoutGapsOrRepeats() async {
        let transport = ScriptedTransport()
        transport.expectEvents(Fixture.upToQuote.prefix(2).map { $0 }, end: .drop)
        // The server (or a proxy) repeats version 2 and sends 1 out of order: neither is shown again.
        transport.expectEvents(
            [
                Fixture.document(.pendingQuote, 2), Fixture.document(.pendingPayeeLookup, 1),
                Fixture.document(.authorizationRequired, 3),
            ], end: .drop)
        transport.expectNoAnswer("GET", Self.path)
        transport.expectEvents([Fixture.document(.authorized, 4), Fixture.document(.success, 5)])
        let (sequences, error) = await Self.collect(
            Fixture.repository(transport, attempts: 2).documents(Fixture.transferId))
        #expect(sequences == [1, 2, 3, 4, 5])
        #expect(error == nil)
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "2", "3", "3"])
        transport.verifyAllUsed()
    }

    @Test("after maxAttempts failures in a row the stream throws a transport error")
    func givesUp() async {
        let transport = ScriptedTransport()
        transport.expectEvents([Fixture.document(.authorized, 4)], end: .drop)
        transport.expectNoAnswer("GET", Self.path)
        transport.expectStream(
            Self.path, status: 503, chunks: [#"{"error":{"code":"unavailable","message":"Later."}}"#])
        let (sequences, error) = await Self.collect(
            Fixture.repository(transport, attempts: 2).documents(Fixture.transferId, after: 3))
        #expect(sequences == [4])
        guard case .transport? = error as? CountersignClientError else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == ["3", "4", "4"])
        transport.verifyAllUsed()
    }

    @Test("a refusal (404 not_found) ends the stream at once, without reconnecting")
    func refusalIsNotRetried() async {
        let transport = ScriptedTransport()
        transport.expectStream(
            Self.path, status: 404, chunks: [#"{"error":{"code":"not_found","message":"No such transfer."}}"#])
        let (sequences, error) = await Self.collect(
            Fixture.repository(transport, attempts: 5).documents(Fixture.transferId))
        #expect(sequences.isEmpty)
        #expect((error as? CountersignClientError)?.code == "not_found")
        transport.verifyAllUsed()
    }

    @Test(
        "resuming after the final version: the server's 204 ends the stream with the document, not endless reconnects")
    func finalVersionAlreadySent() async {
        let transport = ScriptedTransport()
        let final = Fixture.document(.success, 5)
        transport.expectStream(Self.path, status: 204, chunks: [], end: .close)
        transport.expect("GET", "/transfers/\(Fixture.transferId)", json: Fixture.json(final))
        let (sequences, error) = await Self.collect(
            Fixture.repository(transport, attempts: 5).documents(Fixture.transferId, after: 4))
        #expect(sequences == [5], "the final version the client missed is yielded once")
        #expect(error == nil)
        transport.verifyAllUsed()
    }

    @Test("a stream that closes cleanly before a final status counts as a drop and is resumed")
    func cleanCloseIsResumed() async {
        let transport = ScriptedTransport()
        transport.expectEvents([Fixture.document(.pendingPayeeLookup, 1)], end: .close)
        transport.expectEvents([
            Fixture.document(.failed, 2, error: TransferFailure(code: "payee_not_found", message: "No such payee."))
        ])
        let (sequences, error) = await Self.collect(Fixture.repository(transport).documents(Fixture.transferId))
        #expect(sequences == [1, 2])
        #expect(error == nil)
        transport.verifyAllUsed()
    }

    @Test(
        "a connection silent for the idle limit (no keep-alive) counts as dropped and is resumed",
        .timeLimit(.minutes(1)))
    func silenceIsADrop() async {
        let transport = ScriptedTransport()
        transport.expectEvents([Fixture.document(.pendingPayeeLookup, 1)])
        transport.expectEvents([Fixture.document(.pendingQuote, 2), Fixture.document(.cancelled, 3)])
        let started = ContinuousClock.now
        let (sequences, error) = await Self.collect(
            Fixture.repository(transport, idleLimit: .milliseconds(100)).documents(Fixture.transferId))
        #expect(sequences == [1, 2, 3])
        #expect(error == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(transport.requests.map { $0.header("Last-Event-ID") } == [nil, "1"])
        transport.verifyAllUsed()
    }

    @Test("keep-alive comments keep a quiet stream open; a whole silent window ends it", .timeLimit(.minutes(1)))
    func keepAlive() async throws {
        // Each step waits for the other side, so the test runs the same on a loaded machine.
        let chunks = Channel<[UInt8]?>()
        let pulls = Channel<Void>()
        let windows = Channel<Void>()
        let ticks = Channel<Void>()
        let body = AsyncThrowingStream<[UInt8], any Error>(unfolding: {
            await pulls.send(())
            return await chunks.receive() ?? nil
        })
        let transport = ScriptedTransport()
        transport.expectLiveStream(Self.path, body: body)
        let client = CountersignAPIClient(
            transport: transport, sessionToken: "tok",
            idleWait: { _ in
                await windows.send(())
                await ticks.receive()
            })
        var events = try await client.transferEvents(id: Fixture.transferId).makeAsyncIterator()
        await pulls.receive()
        for _ in 0..<3 {
            await windows.receive()
            await chunks.send(Array(": keep-alive\n".utf8))
            await pulls.receive() // the reader has taken the comment
            await ticks.send(()) // the window ends having seen it
        }
        await chunks.send(Array(Fixture.event(Fixture.document(.authorized, 4)).utf8))
        #expect(try await events.next()?.id == "4")
        await windows.receive()
        await ticks.send(()) // the window that saw the event
        await windows.receive()
        await ticks.send(()) // a silent one
        var ending: (any Error)?
        do {
            _ = try await events.next()
        } catch {
            ending = error
        }
        #expect((ending as? StreamIdleTimeout)?.limit == .seconds(30))
        transport.verifyAllUsed()
    }

    @Test("the backoff doubles and stops at the maximum")
    func backoff() {
        let policy = ReconnectPolicy(maxAttempts: 5, initialDelay: .seconds(1), maxDelay: .seconds(8))
        #expect(
            (1...6).map { policy.delay(beforeAttempt: $0) } == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8),
            ])
    }
}
