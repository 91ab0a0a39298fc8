import Foundation

/// What the FIDO Metadata Service says about one authenticator model, as `countersign mds import`
/// stored it from a verified BLOB.
package struct AuthenticatorMetadata: Sendable, Equatable {
    /// The model's AAGUID, lowercase UUID text.
    package let aaguid: String
    package let description: String
    /// The status reports in the BLOB's order (FIDO MDS3 §3.1.3 StatusReport).
    package let statusReports: [StatusReport]
    /// The roots its attestation certificates chain to (DER).
    package let attestationRootCertificates: [[UInt8]]

    package init(
        aaguid: String, description: String, statusReports: [StatusReport], attestationRootCertificates: [[UInt8]]
    ) {
        self.aaguid = aaguid
        self.description = description
        self.statusReports = statusReports
        self.attestationRootCertificates = attestationRootCertificates
    }

    /// One entry of `statusReports`.
    package struct StatusReport: Sendable, Equatable, Codable {
        /// An AuthenticatorStatus, e.g. `FIDO_CERTIFIED`, `REVOKED`.
        package let status: String
        /// `YYYY-MM-DD`; absent in some reports.
        package let effectiveDate: String?

        package init(status: String, effectiveDate: String?) {
            self.status = status
            self.effectiveDate = effectiveDate
        }
    }

    /// Statuses that mean keys of this model can no longer be trusted (FIDO MDS3 §3.1.4): the
    /// relying party should not register them.
    package static let compromisedStatuses: Set<String> = [
        "REVOKED", "USER_VERIFICATION_BYPASS", "ATTESTATION_KEY_COMPROMISE", "USER_KEY_REMOTE_COMPROMISE",
        "USER_KEY_PHYSICAL_COMPROMISE",
    ]

    /// The latest report by effective date (a report without one counts as oldest; ties go to the
    /// later in the BLOB's order).
    package var latestStatus: StatusReport? {
        statusReports.enumerated().max { lhs, rhs in
            let (left, right) = (lhs.element.effectiveDate ?? "", rhs.element.effectiveDate ?? "")
            return left == right ? lhs.offset < rhs.offset : left < right
        }?.element
    }

    /// Whether the latest report says the model is compromised.
    package var isCompromised: Bool { latestStatus.map { Self.compromisedStatuses.contains($0.status) } ?? false }

    /// The AAGUID bytes in UUID text form, lowercase (`00000000-0000-…`).
    package static func text(aaguid bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        ).uuidString.lowercased()
    }
}
