import ArgumentParser
import CountersignServer
import Foundation

/// `countersign mds`: the FIDO Metadata Service, which registration consults for authenticator models.
struct MetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mds", abstract: "FIDO Metadata Service: authenticator models and their status.",
        subcommands: [MetadataImportCommand.self])
}

/// `countersign mds import FILE`: verifies a downloaded metadata BLOB offline and stores its entries.
struct MetadataImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Verify a FIDO metadata BLOB (https://mds3.fidoalliance.org/) and store its entries.",
        discussion:
            "The BLOB's x5c chain must lead to the pinned FIDO root (GlobalSign Root CA - R3), its signature must verify and its nextUpdate must not be past; otherwise nothing is stored and the command exits 65."
    )

    @OptionGroup var store: StoreOptions

    @Argument(help: "The metadata BLOB file (a JWT), as downloaded.")
    var file: String

    @Option(
        name: .customLong("root"),
        help: "A PEM root certificate to verify against instead of FIDO's pinned one (env COUNTERSIGN_MDS_ROOT).")
    var root: String?

    /// EX_DATAERR: the BLOB was read and refused.
    static let refused = ExitCode(65)

    func run() async throws {
        let jwt: String
        let rootPEM: String?
        do {
            jwt = try String(contentsOfFile: file, encoding: .utf8)
            rootPEM = try (root ?? ProcessInfo.processInfo.environment["COUNTERSIGN_MDS_ROOT"]).map {
                try String(contentsOfFile: $0, encoding: .utf8)
            }
        } catch {
            throw ValidationError("cannot read \(error.localizedDescription)")
        }
        try await store.withExistingStore { services in
            do {
                let blob = try await MetadataImport.run(
                    jwt: jwt, rootPEM: rootPEM, database: services.database, now: Date())
                print(
                    "imported metadata BLOB no. \(blob.number): \(blob.entries.count) authenticator models, next update \(blob.nextUpdate)"
                )
            } catch let error as MetadataBLOBError {
                FileHandle.standardError.write(Data("mds import: refused: \(error.description)\n".utf8))
                throw Self.refused
            }
        }
    }
}
