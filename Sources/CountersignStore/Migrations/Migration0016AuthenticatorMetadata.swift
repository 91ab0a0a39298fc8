/// FIDO Metadata Service entries (`countersign mds import`): one row per authenticator model
/// (AAGUID, lowercase UUID text), its status reports and attestation roots as the verified BLOB
/// gave them, JSON. Each import replaces every row; `blob_number` is the BLOB's serial `no`.
enum Migration0016AuthenticatorMetadata {
    static let migration = Migration(
        version: 16, name: "authenticator_metadata",
        statements: [
            """
            CREATE TABLE authenticator_metadata (
                aaguid TEXT PRIMARY KEY,
                description TEXT NOT NULL,
                status_reports TEXT NOT NULL,
                attestation_root_certificates TEXT NOT NULL,
                blob_number BIGINT NOT NULL,
                imported_at BIGINT NOT NULL
            )
            """
        ])
}
