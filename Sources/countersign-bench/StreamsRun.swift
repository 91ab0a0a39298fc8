import CountersignClient
import Foundation

/// One run of the streams benchmark against a started server: enrol, create the transfers, open a
/// stream on each, measure memory and idle CPU, decline some and time their final events.
struct StreamsRun: Sendable {
    let server: ServerUnderTest
    let streams: Int
    let finish: Int
    let payerCount: Int
    let idleSeconds: Double
    let threads: Int
    let deadline: ContinuousClock.Instant

    /// When one decline was sent and answered, for the stream of its transfer.
    private struct Finish: Sendable {
        let stream: Int
        let sent: ContinuousClock.Instant
        let answered: ContinuousClock.Instant
    }

    func run(machine: MachineInfo, engine: String) async throws -> StreamsReport {
        try await server.waitUntilHealthy()
        let payers = try await StreamPayers.prepare(
            count: payerCount, port: server.port, cli: OperatorCLI(server: server))
        defer { payers.shutdown() }
        Console.say("\(payerCount) payers enrolled and funded; creating \(streams) transfers")
        let createStart = ContinuousClock.now
        let transfers = try await payers.createTransfers(count: streams)
        let createSeconds = (ContinuousClock.now - createStart).seconds
        Console.say("created in \(Figure.fixed(createSeconds)) s; opening the streams")

        let arrivals = StreamArrivals(count: transfers.count)
        let clients = EventStreamClients(port: server.port, arrivals: arrivals, threads: threads)
        let openStart = ContinuousClock.now
        let channels = try await clients.open(transfers.map(\.target))
        let openSeconds = (ContinuousClock.now - openStart).seconds
        do {
            Console.say("\(channels.count) streams open in \(Figure.fixed(openSeconds)) s; waiting for the worker")
            // Ready: the worker has quoted the transfer and the stream has that version; it now
            // waits for the device's signature and nothing changes until the bench declines it.
            try await waitUntil("every stream at AUTHORIZATION_REQUIRED") {
                arrivals.count { $0.status == "AUTHORIZATION_REQUIRED" || $0.failure != nil } == transfers.count
            }
            let readySeconds = (ContinuousClock.now - openStart).seconds
            let before = server.stats()
            let idleStart = ContinuousClock.now
            try await Task.sleep(for: .seconds(idleSeconds))
            let after = server.stats()
            let idleWall = (ContinuousClock.now - idleStart).seconds
            let snapshot = arrivals.snapshot()
            guard let before, let after else { throw BenchError("the server exited:\n\(server.logTail())") }
            let bench = ProcessStats.read(pid: getpid())
            Console.say(
                "ready after \(Figure.fixed(readySeconds)) s; server RSS \(Figure.fixed(after.residentMB)) MB; declining \(finish)"
            )

            let (finishes, errors) = try await decline(transfers, payers: payers, arrivals: snapshot)
            let wanted = Set(finishes.map(\.stream))
            try? await waitUntil("the final events", seconds: 30) {
                arrivals.count { $0.finalAt != nil } >= wanted.count
            }
            let final = arrivals.snapshot()
            var fromSend: [Double] = []
            var fromAnswer: [Double] = []
            for finish in finishes {
                guard let arrived = final[finish.stream].finalAt else { continue }
                fromSend.append((arrived - finish.sent).milliseconds)
                fromAnswer.append((arrived - finish.answered).milliseconds)
            }
            var failures: [String: Int] = [:]
            for progress in final { if let failure = progress.failure { failures[failure, default: 0] += 1 } }
            await clients.shutdown(channels)
            return StreamsReport(
                machine: machine, engine: engine, streams: channels.count, finished: finishes.count,
                payers: payerCount, createSeconds: createSeconds, openSeconds: openSeconds, readySeconds: readySeconds,
                streamsWithFirstEvent: snapshot.count { $0.firstEventAt != nil },
                streamsReady: snapshot.count { $0.status == "AUTHORIZATION_REQUIRED" },
                serverResidentMB: after.residentMB, serverPeakResidentMB: after.peakResidentMB,
                benchResidentMB: bench?.residentMB ?? 0, idleSeconds: idleWall,
                idleServerCores: idleWall > 0 ? (after.cpuSeconds - before.cpuSeconds) / idleWall : 0,
                fromSend: LatencySummary(name: "from sending the decline", milliseconds: fromSend),
                fromAnswer: LatencySummary(name: "from the decline's answer", milliseconds: fromAnswer),
                arrived: fromSend.count, finishErrors: errors, streamFailures: failures,
                disorders: final.reduce(0) { $0 + $1.disorders }, keepAlives: final.reduce(0) { $0 + $1.keepAlives })
        } catch {
            await clients.shutdown(channels)
            throw error
        }
    }

    /// Declines `finish` ready transfers, spread evenly over the run (every k-th), each payer
    /// declining its own in turn on its connection, all payers at once: the API call that gives
    /// the payer's verdict, committing the final version.
    private func decline(
        _ transfers: [StreamPayers.OpenTransfer], payers: StreamPayers, arrivals: [StreamArrivals.Progress]
    ) async throws -> ([Finish], [String: Int]) {
        let ready = transfers.indices.filter { arrivals[$0].status == "AUTHORIZATION_REQUIRED" }
        let step = max(1, ready.count / finish)
        let chosen = stride(from: 0, to: ready.count, by: step).prefix(finish).map { ready[$0] }
        let byPayer = Dictionary(grouping: chosen) { transfers[$0].payer }
        return try await withThrowingTaskGroup(of: ([Finish], [String: Int]).self) { group in
            for (payerIndex, streams) in byPayer {
                let payer = payers.payers[payerIndex]
                group.addTask {
                    try await payer.executor.run {
                        var done: [Finish] = []
                        var errors: [String: Int] = [:]
                        for stream in streams {
                            let sent = ContinuousClock.now
                            do {
                                _ = try await payer.api.declineTransfer(id: transfers[stream].target.transferId)
                                done.append(Finish(stream: stream, sent: sent, answered: ContinuousClock.now))
                            } catch {
                                errors["\(error)", default: 0] += 1
                            }
                        }
                        return (done, errors)
                    }
                }
            }
            return try await group.reduce(into: ([], [:])) { all, one in
                all.0 += one.0
                all.1.merge(one.1, uniquingKeysWith: +)
            }
        }
    }

    /// Polls `condition` every 100 ms until it holds; fails after `seconds` or at the run's deadline.
    private func waitUntil(_ what: String, seconds: Double = 3_600, _ condition: () -> Bool) async throws {
        let giveUp = min(deadline, ContinuousClock.now + .seconds(seconds))
        while !condition() {
            guard ContinuousClock.now < giveUp else { throw BenchError("timed out waiting for \(what)") }
            if let status = server.process.poll() {
                throw BenchError("the server exited with status \(status):\n\(server.logTail())")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double { milliseconds / 1_000 }
}
