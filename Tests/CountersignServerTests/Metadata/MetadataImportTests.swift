import CountersignCodec
import CountersignServer
import CountersignStore
import Crypto
import CryptoExtras
import Foundation
import Testing
import X509

/// `countersign mds import`: a FIDO metadata BLOB is stored only when its chain leads to the pinned root,
/// its signature verifies and its nextUpdate is not past. The tests pin a root of their own.
@Suite("Metadata import")
struct MetadataImportTests {
    /// A root, an intermediate and the BLOB-signing leaf, as the service's PKI has them.
    struct Signer {
        let root: TestIdentity
        let intermediate: TestIdentity
        let leaf: TestIdentity

        init(_ name: String = "Test MDS") throws {
            root = try TestIdentity.root("\(name) Root")
            intermediate = try root.issue("\(name) CA", ca: true)
            leaf = try intermediate.issue("\(name) BLOB signer", ca: true)
        }

        var chain: [[UInt8]] { [leaf.der, intermediate.der] }

        func blob(_ payload: [UInt8]) throws -> String {
            try TestMetadataBLOB.jwt(payload: payload, signer: leaf.key, chain: chain)
        }
    }

    static let revoked = "a6a1f0d2-0000-4000-8000-00000000000a"
    static let certified = "b7b2e1c3-0000-4000-8000-00000000000b"

    static func payload(nextUpdate: String = TestMetadataBLOB.date(days: 30)) -> [UInt8] {
        TestMetadataBLOB.payload(
            nextUpdate: nextUpdate,
            entries: [
                .init(aaguid: revoked, statuses: [("FIDO_CERTIFIED", "2023-01-01"), ("REVOKED", "2024-06-01")]),
                .init(aaguid: certified),
            ])
    }

    @Test("a good BLOB is stored, its latest status per AAGUID readable", arguments: TestEngines.all)
    func goodBLOB(engine: DatabaseEngine) async throws {
        let signer = try Signer()
        try await TestDatabase.with(engine) { database in
            let blob = try await MetadataImport.run(
                jwt: try signer.blob(Self.payload()), rootPEM: signer.root.pem, database: database, now: Date())
            #expect(blob.entries.count == 2)
            let (revoked, certified, count) = try await database.read { sql in
                return (
                    try await sql.metadata.find(aaguid: Self.revoked),
                    try await sql.metadata.find(aaguid: Self.certified), try await sql.metadata.count()
                )
            }
            #expect(count == 2)
            #expect(revoked?.latestStatus?.status == "REVOKED")
            #expect(revoked?.isCompromised == true)
            #expect(certified?.isCompromised == false)
        }
    }

    @Test("an RS256 BLOB, signed by an RSA leaf as FIDO's is, is accepted")
    func rs256() async throws {
        let signer = try Signer()
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rsa.publicKey),
            notValidBefore: Date() - 3_600, notValidAfter: Date() + 86_400,
            issuer: signer.intermediate.certificate.subject,
            subject: try TestIdentity.name("Test MDS RSA signer"), signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(KeyUsage(digitalSignature: true)) },
            issuerPrivateKey: .init(signer.intermediate.key))
        let chain = [TestIdentity.der(leaf), signer.intermediate.der]
        let jwt = try TestMetadataBLOB.jwt(payload: Self.payload(), signer: rsa, chain: chain)
        let blob = try await MetadataBLOBVerifier(rootPEM: signer.root.pem).verify(jwt, now: Date())
        #expect(blob.entries.count == 2)
    }

    /// What each bad BLOB is refused with; nothing is stored.
    @Test("tampered, stale, wrongly signed or foreign BLOBs are refused and store nothing")
    func refusals() async throws {
        let signer = try Signer()
        let other = try Signer("Other")
        let good = try signer.blob(Self.payload())
        var parts = good.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Self.payload(nextUpdate: TestMetadataBLOB.date(days: 400)))
        let tampered = parts.joined(separator: ".")
        let cases: [(String, String, String)] = [
            ("tampered payload", tampered, "signature"),
            (
                "nextUpdate past", try signer.blob(Self.payload(nextUpdate: TestMetadataBLOB.date(days: -1))),
                "nextUpdate"
            ),
            (
                "signed by a key that is not the leaf",
                try TestMetadataBLOB.jwt(payload: Self.payload(), signer: other.leaf.key, chain: signer.chain),
                "signature"
            ),
            ("chained to another root", try other.blob(Self.payload()), "pinned root"),
            ("not a JWT", "hello", "JWT"),
        ]
        try await TestDatabase.with(.sqlite) { database in
            for (name, jwt, message) in cases {
                let error = await #expect(throws: MetadataBLOBError.self, "\(name)") {
                    try await MetadataImport.run(jwt: jwt, rootPEM: signer.root.pem, database: database, now: Date())
                }
                #expect(error?.description.contains(message) == true, "\(name): \(String(describing: error))")
            }
            let count = try await database.read { sql in try await sql.metadata.count() }
            #expect(count == 0)
        }
        // FIDO's own root is the default: a BLOB of any other PKI is refused by it.
        await #expect(throws: MetadataBLOBError.self) {
            try await MetadataBLOBVerifier().verify(good, now: Date())
        }
    }

    @Test("countersign mds import exits 0 on a good BLOB and 65 with the reason on a bad one")
    func commandLine() async throws {
        let signer = try Signer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-mds-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("root.pem")
        try signer.root.pem.write(to: root, atomically: true, encoding: .utf8)
        let good = directory.appendingPathComponent("blob.jwt")
        try signer.blob(Self.payload()).write(to: good, atomically: true, encoding: .utf8)
        let stale = directory.appendingPathComponent("stale.jwt")
        try signer.blob(Self.payload(nextUpdate: TestMetadataBLOB.date(days: -3))).write(
            to: stale, atomically: true, encoding: .utf8)
        let data = ["--data-dir", directory.appendingPathComponent("data").path]
        let environment = ["DATABASE_URL": ""]
        // Only serve and migrate create a store; the import stores into one that exists.
        let migrated = try await CommandLineTests.run(["migrate"] + data, environment: environment)
        try #require(migrated.status == 0, "\(migrated.output)")

        let imported = try await CommandLineTests.run(
            ["mds", "import", good.path, "--root", root.path] + data, environment: environment)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("2 authenticator models"), "\(imported.output)")

        let refused = try await CommandLineTests.run(
            ["mds", "import", stale.path, "--root", root.path] + data, environment: environment)
        #expect(refused.status == 65, "\(refused.output)")
        #expect(refused.output.contains("refused") && refused.output.contains("nextUpdate"), "\(refused.output)")

        // Without --root, FIDO's pinned root: the tests' PKI is not it.
        let pinned = try await CommandLineTests.run(["mds", "import", good.path] + data, environment: environment)
        #expect(pinned.status == 65, "\(pinned.output)")
        #expect(pinned.output.contains("pinned root"), "\(pinned.output)")
    }
}
