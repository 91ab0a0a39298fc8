import Foundation

/// The payload of a FIDO Metadata Service BLOB (FIDO MDS3 §3.1.7 MetadataBLOBPayload), as far as
/// registration uses it. Entries without an AAGUID (FIDO UAF and U2F models) are skipped.
package struct MetadataBLOB: Sendable, Equatable {
    /// The BLOB's serial number, `no`.
    package let number: Int64
    /// `nextUpdate`, `YYYY-MM-DD`.
    package let nextUpdate: String
    package let entries: [AuthenticatorMetadata]

    /// Decodes the payload JSON; `nil` fields the spec requires are refused.
    init(payload: [UInt8]) throws(MetadataBLOBError) {
        let decoded: Payload
        do {
            decoded = try JSONDecoder().decode(Payload.self, from: Data(payload))
        } catch {
            throw MetadataBLOBError("the payload is not a metadata BLOB payload: \(error)")
        }
        number = decoded.no
        nextUpdate = decoded.nextUpdate
        var entries: [AuthenticatorMetadata] = []
        for entry in decoded.entries {
            guard let aaguid = entry.aaguid else { continue }
            guard let uuid = UUID(uuidString: aaguid) else {
                throw MetadataBLOBError("entry aaguid \"\(aaguid)\" is not a UUID")
            }
            var roots: [[UInt8]] = []
            for text in entry.metadataStatement?.attestationRootCertificates ?? [] {
                guard let der = Data(base64Encoded: text) else {
                    throw MetadataBLOBError("an attestation root of \(aaguid) is not base64")
                }
                roots.append(Array(der))
            }
            entries.append(
                AuthenticatorMetadata(
                    aaguid: uuid.uuidString.lowercased(), description: entry.metadataStatement?.description ?? "",
                    statusReports: entry.statusReports, attestationRootCertificates: roots))
        }
        self.entries = entries
    }

    private struct Payload: Decodable {
        let no: Int64
        let nextUpdate: String
        let entries: [Entry]
    }

    private struct Entry: Decodable {
        let aaguid: String?
        let metadataStatement: Statement?
        let statusReports: [AuthenticatorMetadata.StatusReport]
    }

    private struct Statement: Decodable {
        let description: String?
        let attestationRootCertificates: [String]?
    }
}

/// Why a metadata BLOB was refused; the message says which check failed.
package struct MetadataBLOBError: Error, Sendable, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
