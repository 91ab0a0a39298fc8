import CountersignAPI
import CountersignClient
import CountersignHarness
import Foundation

extension FlowClient {
    /// Phone numbers unique to this run (a random 6-digit run prefix), so runs against a reused
    /// PostgreSQL database never collide with earlier users.
    static func phones(count: Int) -> [String] {
        let run = Int.random(in: 0..<100_000)
        return (0..<count).map { "09" + String(format: "%05d%04d", run, $0) }
    }

    /// `count` clients, each with its own thread and connection, an enrolled user (signup →
    /// software device key, through the SDK) and a funded wallet. Enrolment runs concurrently
    /// (signup's PBKDF2 dominates); funding runs the CLI a few at a time (each is a process opening the store).
    /// `unkeyed`: the clients' top-ups leave without their `Idempotency-Key` (see `UnkeyedTopUps`).
    static func prepare(count: Int, port: Int, cli: OperatorCLI, funding: Int64, unkeyed: Bool = false) async throws
        -> [FlowClient]
    {
        let clients = try await withThrowingTaskGroup(of: FlowClient.self) { group in
            for phone in phones(count: count) {
                group.addTask { try await enroll(phone: phone, port: port, unkeyed: unkeyed) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for batch in stride(from: 0, to: clients.count, by: 4) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients[batch..<min(batch + 4, clients.count)] {
                    group.addTask { try await cli.fund(phone: client.phone, amount: funding) }
                }
                try await group.waitForAll()
            }
        }
        return clients
    }

    /// A client on a new thread whose user `phone` signs up and registers a device key.
    private static func enroll(phone: String, port: Int, unkeyed: Bool) async throws -> FlowClient {
        let executor = DedicatedThreadExecutor(name: "bench client \(phone.suffix(4))")
        let transport = LoopbackSocketTransport(port: port)
        do {
            let (sessionToken, device) = try await executor.run { () async throws -> (String, DeviceAuthenticator) in
                let name = "Bench \(phone.suffix(4))"
                do {
                    let user = try await EnrolledUser.enroll(
                        over: transport, phone: phone, name: name, origin: ServerUnderTest.origin)
                    return (user.sessionToken, user.device)
                } catch CountersignClientError.api(404, _, _, _, _) {
                    // A build from before SMS codes: no simulator to read a code from.
                    return try await enrollWithoutCode(over: transport, phone: phone, name: name)
                }
            }
            let api = CountersignAPIClient(
                transport: unkeyed ? UnkeyedTopUps(transport) : transport, sessionToken: sessionToken,
                createRetries: 0)
            return FlowClient(
                executor: executor, phone: phone, api: api, signer: DeviceKeySigner(authenticator: device))
        } catch {
            executor.shutdown()
            throw BenchError("enrolling \(phone): \(error)")
        }
    }

    /// Signup as builds from before SMS codes took it (phone, name and PIN, no code), then the device
    /// key as `EnrolledUser` registers it (such a build ignores the step-up it is sent).
    private static func enrollWithoutCode(over transport: any HTTPTransport, phone: String, name: String)
        async throws -> (String, DeviceAuthenticator)
    {
        let body = try JSONEncoder().encode(["phone": phone, "name": name, "pin": "4827"])
        let signup = try await transport.send(
            TransportRequest(
                method: "POST", path: "/auth/signup", headers: ["Content-Type": "application/json"],
                body: Array(body)))
        guard signup.status == 201 else {
            throw BenchError("signup without a code: \(signup.status) \(String(decoding: signup.body, as: UTF8.self))")
        }
        let session = try JSONDecoder().decode(SessionResponse.self, from: Data(signup.body))
        let api = CountersignAPIClient(transport: transport, sessionToken: session.sessionToken)
        let device = try await api.registerDevice(
            stepUp: RegistrationOptionsRequest(pin: "4827"), origin: ServerUnderTest.origin)
        return (session.sessionToken, device)
    }
}
