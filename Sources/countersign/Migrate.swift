import ArgumentParser
import CountersignServer
import Logging

/// `countersign migrate`: applies pending migrations and exits (the server also does this at start).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply database migrations and exit.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await OperatorSession.run(configuration: store.configuration(), logger: Logger(label: "countersign")) {
            services in
            try await services.prepareStore()
            print("schema up to date on \(services.database.engine)")
        }
    }
}
