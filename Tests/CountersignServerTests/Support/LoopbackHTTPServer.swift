import Hummingbird
import ServiceLifecycle

/// A Hummingbird application on an ephemeral 127.0.0.1 port for the length of `body`, which is
/// given the port: the fakes the tests talk to (Stripe, a trace collector).
enum LoopbackHTTPServer {
    static func run<T: Sendable>(
        _ router: Router<BasicRequestContext>, name: String, _ body: @Sendable (_ port: Int) async throws -> T
    ) async throws -> T {
        let bound = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: name),
            onServerRunning: { channel in bound.continuation.yield(channel.localAddress?.port ?? 0) },
            logger: TestDatabase.logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: TestDatabase.logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ports = bound.stream.makeAsyncIterator()
            guard let port = await ports.next(), port > 0 else { throw TestFailure("\(name) did not start") }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}
