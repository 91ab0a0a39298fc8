import CountersignAPI
import CountersignClient
import CountersignHarness
import Foundation

/// The users of the streams benchmark: a few payers, each enrolled through the SDK with its own
/// thread and connection, and one payee every transfer goes to. The transfers are created through
/// the API, and the worker moves each to `AUTHORIZATION_REQUIRED`, where it stays open (waiting for
/// the device's signature) until the bench declines it.
struct StreamPayers: Sendable {
    /// One payer: its thread, session and SDK client.
    struct Payer: Sendable {
        let executor: DedicatedThreadExecutor
        let phone: String
        let token: String
        let api: CountersignAPIClient
    }

    /// A transfer the bench created: the stream to open on it, and which payer may decline it.
    struct OpenTransfer: Sendable {
        let target: EventStreamClients.Target
        let payer: Int
    }

    let payers: [Payer]
    let payeePhone: String

    /// What each transfer sends: ₦1.00, so that thousands stay far inside the limits.
    static let amount: Int64 = 100

    /// Enrols `count` payers and a payee and funds the payers with the operator CLI.
    static func prepare(count: Int, port: Int, cli: OperatorCLI) async throws -> StreamPayers {
        let phones = FlowClient.phones(count: count + 1)
        let payers = try await withThrowingTaskGroup(of: Payer.self) { group in
            for phone in phones.dropLast() { group.addTask { try await enroll(phone: phone, port: port) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let payee = try await enroll(phone: phones[count], port: port)
        payee.executor.shutdown()
        for payer in payers { try await cli.fund(phone: payer.phone, amount: OperatorCLI.maximumFunding) }
        return StreamPayers(payers: payers, payeePhone: payee.phone)
    }

    private static func enroll(phone: String, port: Int) async throws -> Payer {
        let executor = DedicatedThreadExecutor(name: "bench payer \(phone.suffix(4))")
        let transport = LoopbackSocketTransport(port: port)
        do {
            let user = try await executor.run {
                try await EnrolledUser.enroll(
                    over: transport, phone: phone, name: "Bench \(phone.suffix(4))", origin: ServerUnderTest.origin)
            }
            let api = CountersignAPIClient(transport: transport, sessionToken: user.sessionToken, createRetries: 0)
            return Payer(executor: executor, phone: phone, token: user.sessionToken, api: api)
        } catch {
            executor.shutdown()
            throw BenchError("enrolling \(phone): \(error)")
        }
    }

    /// Creates `count` transfers through `POST /transfers`, spread over the payers, each payer's in
    /// turn on its own connection; returns them as stream targets with their payer's index.
    func createTransfers(count: Int) async throws -> [OpenTransfer] {
        let request = CreateTransferRequest(payeePhone: payeePhone, amount: Self.amount, currency: "NGN")
        return try await withThrowingTaskGroup(of: [OpenTransfer].self) { group in
            for (index, payer) in payers.enumerated() {
                let share = count / payers.count + (index < count % payers.count ? 1 : 0)
                group.addTask {
                    try await payer.executor.run {
                        var made: [OpenTransfer] = []
                        for _ in 0..<share {
                            let document = try await payer.api.createTransfer(request)
                            made.append(
                                OpenTransfer(
                                    target: EventStreamClients.Target(transferId: document.id, token: payer.token),
                                    payer: index))
                        }
                        return made
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// Stops the payers' threads.
    func shutdown() {
        payers.forEach { $0.executor.shutdown() }
    }
}
