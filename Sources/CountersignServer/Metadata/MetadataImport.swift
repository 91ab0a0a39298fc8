import CountersignStore
import Foundation

/// `countersign mds import`: verifies a FIDO Metadata Service BLOB and replaces the stored
/// metadata with its entries, in one transaction. Nothing is stored unless every check holds.
package enum MetadataImport {
    /// Verifies `jwt` against `rootPEM` (FIDO's pinned root unless given) at `now`, stores it, and
    /// returns what was stored.
    package static func run(
        jwt: String, rootPEM: String? = nil, database: any Database, now: Date
    ) async throws -> MetadataBLOB {
        let verifier = try MetadataBLOBVerifier(rootPEM: rootPEM ?? FIDOMetadataRoot.pem)
        let blob = try await verifier.verify(jwt, now: now)
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        try await database.transaction { sql in
            try await sql.metadata.replaceAll(with: blob, now: millis)
        }
        return blob
    }
}
