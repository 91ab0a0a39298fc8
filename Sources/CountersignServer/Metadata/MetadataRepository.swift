import CountersignStore
import Foundation

/// The imported FIDO metadata, one row per AAGUID (`authenticator_metadata`).
package struct MetadataRepository: Sendable {
    let sql: any SQLExecutor

    /// Replaces every entry with `blob`'s: an import is the whole BLOB, so a model the service
    /// dropped is dropped here too.
    package func replaceAll(with blob: MetadataBLOB, now: Int64) async throws {
        try await sql.execute("DELETE FROM authenticator_metadata")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for entry in blob.entries {
            let reports = String(decoding: try encoder.encode(entry.statusReports), as: UTF8.self)
            let roots = String(
                decoding: try encoder.encode(entry.attestationRootCertificates.map { Data($0).base64EncodedString() }),
                as: UTF8.self)
            // A BLOB that lists one AAGUID twice keeps the later entry.
            try await sql.execute(
                """
                INSERT INTO authenticator_metadata
                    (aaguid, description, status_reports, attestation_root_certificates, blob_number, imported_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (aaguid) DO UPDATE SET description = excluded.description,
                    status_reports = excluded.status_reports,
                    attestation_root_certificates = excluded.attestation_root_certificates
                """,
                [
                    .text(entry.aaguid), .text(entry.description), .text(reports), .text(roots),
                    .integer(blob.number), .integer(now),
                ])
        }
    }

    /// The entry for `aaguid` (lowercase UUID text), if the last import had one.
    package func find(aaguid: String) async throws -> AuthenticatorMetadata? {
        guard let row = try await sql.first("SELECT * FROM authenticator_metadata WHERE aaguid = $1", [.text(aaguid)])
        else { return nil }
        let decoder = JSONDecoder()
        let reports = try decoder.decode(
            [AuthenticatorMetadata.StatusReport].self, from: Data(try row.string("status_reports").utf8))
        let roots = try decoder.decode([String].self, from: Data(try row.string("attestation_root_certificates").utf8))
        return AuthenticatorMetadata(
            aaguid: try row.string("aaguid"), description: try row.string("description"), statusReports: reports,
            attestationRootCertificates: roots.compactMap { Data(base64Encoded: $0).map(Array.init) })
    }

    /// How many entries the last import stored.
    package func count() async throws -> Int64 {
        try await sql.first("SELECT COUNT(*) AS n FROM authenticator_metadata")?.int("n") ?? 0
    }
}

extension SQLExecutor {
    /// `MetadataRepository` on this connection or transaction.
    package var metadata: MetadataRepository { MetadataRepository(sql: self) }
}
