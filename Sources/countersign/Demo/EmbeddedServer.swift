import CountersignServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A Countersign server inside the demo's own process: 127.0.0.1 on a free port, SQLite in a
/// fresh temporary directory, rp id `localhost`, origin `http://localhost:<port>`.
struct EmbeddedServer: Sendable {
    let baseURL: String
    let origin: String
    /// The server's services, for what an operator does (funding a wallet).
    let services: AppServices

    /// Starts the server in `dataDirectory`, runs `body`, then shuts the server down gracefully.
    static func run<T: Sendable>(dataDirectory: String, _ body: @Sendable (EmbeddedServer) async throws -> T)
        async throws -> T
    {
        var logger = Logger(label: "countersign-demo")
        logger.logLevel = .error
        // The origin names the port, and the relying party is fixed when the app is built, so the
        // port is chosen before: bind to port 0, read it, release it.
        let port = try await freePort()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.dataDirectory = dataDirectory
        configuration.rpId = "localhost"
        configuration.origins = ["http://localhost:\(port)"]
        // Demo speed: a tenth of the production PIN hashing, and a quicker transfer worker.
        configuration.pinHashRounds = 21_000
        configuration.transferPollMillis = 100
        configuration.streamFallbackSeconds = 1
        let database = try await CountersignApp.openDatabase(configuration, logger: logger)
        let started = AsyncStream<Void>.makeStream()
        let app = try await CountersignApp.build(configuration: configuration, database: database, logger: logger) {
            _ in
            started.continuation.yield()
        }
        let services = try await CountersignApp.makeServices(
            configuration: configuration, database: database, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            let server = EmbeddedServer(
                baseURL: "http://127.0.0.1:\(port)", origin: "http://localhost:\(port)", services: services)
            let result: Result<T, any Error>
            do {
                result = .success(try await body(server))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
            host: "127.0.0.1", port: 0
        ).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        guard port > 0 else { throw CommandFailure("could not find a free port") }
        return port
    }
}
