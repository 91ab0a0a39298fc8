import ArgumentParser
import CountersignServer
import Logging

/// `countersign migrate`: applies pending migrations and exits (the server also does this at start).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and exit.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        store.apply(to: &configuration)
        let logger = Logger(label: "countersign")
        try await OperatorSession.run(configuration: configuration, logger: logger) { services in
            try await services.prepareStore()
            print("schema up to date on \(services.database.engine)")
        }
    }
}
