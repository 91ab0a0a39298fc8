import ArgumentParser
import CountersignCore
import CountersignServer
import Foundation
import Logging

/// The flags every command that touches the store shares: the store entries of the settings table
/// (`ServeSettings.store`), which also give their help, environment variables and checks.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: Self.help("data-dir"))
    var dataDirectory: String?

    @Option(name: .customLong("database-url"), help: Self.help("database-url"))
    var databaseURL: String?

    @Option(name: .customLong("phone-region"), help: Self.help("phone-region"))
    var phoneRegion: String?

    @Option(name: .customLong("wallet-currency"), help: Self.help("wallet-currency"))
    var walletCurrencies: [String] = []

    func validate() throws {
        _ = try configuration()
    }

    /// A configuration with these flags, then environment, then defaults applied.
    func configuration() throws -> ServerConfiguration {
        let given = [("data-dir", dataDirectory), ("database-url", databaseURL), ("phone-region", phoneRegion)]
        let arguments =
            given.flatMap { name, value in value.map { ["--\(name)", $0] } ?? [] }
            + walletCurrencies.flatMap { ["--wallet-currency", $0] }
        do {
            return try ServeSettings.resolveStore(
                arguments: arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A store setting's help, from the table.
    private static func help(_ name: String) -> ArgumentHelp {
        let setting = ServeSettings.store.first { $0.name == name }
        return ArgumentHelp(
            "\(setting?.help ?? "") (env \(setting?.environment ?? ""))",
            valueName: setting?.valueName)
    }

    /// Runs `body` on the store these flags name, which must exist already: only `serve` and
    /// `migrate` create one, so a mistyped or missing `--data-dir` cannot leave an empty database
    /// behind and fail later on a user it does not hold. When servers run on this machine and none
    /// uses this store, standard error says which one they use.
    func withExistingStore(_ body: @Sendable (AppServices) async throws -> Void) async throws {
        var configuration = try self.configuration()
        let place = try existingPlace(configuration)
        if place.isPostgres, !FileManager.default.fileExists(atPath: configuration.dataDirectory) {
            // No data directory to keep generated secrets in, and none is made: these commands move
            // money in the ledger, flag operators, audit and import metadata, but never hash a PIN,
            // sign a session or check a webhook, so secrets that live for this run only will do.
            let ephemeral = { (0..<32).map { _ in UInt8.random(in: .min ... .max) } }
            configuration.pinPepper = configuration.pinPepper ?? ephemeral()
            configuration.tokenSecret = configuration.tokenSecret ?? ephemeral()
            configuration.paymentWebhookSecret = configuration.paymentWebhookSecret ?? ephemeral()
        }
        do {
            try await OperatorSession.run(
                configuration: configuration, logger: Logger(label: "countersign"), requireSchema: true
            ) { services in
                try await services.prepareStore()
                try await body(services)
            }
        } catch is StoreNotSetUp {
            throw StoreMissing(place: place, servers: ServerRegistry.running(), found: true)
        }
    }

    /// The store's place, refused when it is an SQLite file that does not exist (or is empty); a note
    /// on standard error when it is not the store of any server running here.
    func existingPlace(_ configuration: ServerConfiguration) throws -> StorePlace {
        let place = StorePlace(configuration)
        let servers = ServerRegistry.running()
        if !place.isPostgres {
            let size = (try? FileManager.default.attributesOfItem(atPath: place.identity)[.size] as? NSNumber)?.intValue
            guard let size, size > 0 else { throw StoreMissing(place: place, servers: servers, found: false) }
        }
        if let server = servers.first, !servers.contains(where: { $0.store == place.identity }) {
            FileHandle.standardError.write(
                Data(
                    ("note: this works on the store \(place.identity), but the server running on this machine"
                        + " (pid \(server.pid), \(server.url)) uses \(server.store): to work on its store, pass "
                        + "\(StorePlace.flag(for: server)).\n").utf8))
        }
        return place
    }
}

/// A command that opens an existing store found none where it looked; the message names the place
/// and how to point the command elsewhere.
struct StoreMissing: Error, CustomStringConvertible {
    let place: StorePlace
    let servers: [ServerRegistry.Entry]
    /// The database is there but no `serve` or `migrate` ever set it up.
    let found: Bool

    var description: String {
        let what =
            found
            ? "\(place.identity) holds no Countersign store (no `countersign serve` or `countersign migrate` set it up)"
            : "there is no Countersign store at \(place.identity)"
        var text =
            "\(what). Only `countersign serve` and `countersign migrate` create a store; this command works on an existing one."
        if let server = servers.first(where: { $0.store != place.identity }) {
            text +=
                " The server running on this machine (pid \(server.pid), \(server.url)) uses \(server.store):"
                + " pass \(StorePlace.flag(for: server))."
        } else {
            text +=
                " Point it at the server's store with --data-dir DIR (or COUNTERSIGN_DATA_DIR), or for PostgreSQL"
                + " with --database-url URL (or DATABASE_URL)."
        }
        return text
    }
}
