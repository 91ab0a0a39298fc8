import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Crypto
import Foundation
import Testing
import WebAuthn

/// Secrets must not leak through what is stored beside them, what a retry answers, or who may
/// read the data directory; and a browser's cross-site form cannot reach a JSON endpoint.
@Suite("Side doors")
struct SideDoorTests {
    @Test(
        "the idempotency record cannot be inverted to the PIN, and a retry answers the same whatever PIN it carries",
        arguments: TestEngines.all)
    func idempotencyKeepsThePINOut(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let first = try await server.topUp(user, pin: user.pin, idempotencyKey: "k1")
            #expect(first.status == 200)
            let stored = try await server.database.read { sql in
                try await sql.first("SELECT request_hash FROM idempotency_keys WHERE idempotency_key = 'k1'")?.string(
                    "request_hash")
            }
            let hash = try #require(stored)
            // The attack on a copy of the database: hash the body with each of the 10,000 PINs.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for candidate in 0..<10_000 {
                let pin = String(format: "%04d", candidate)
                let body = TopUpRequest(
                    amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", pin: pin)
                let guess = Base64URL.encode(Array(SHA256.hash(data: try encoder.encode(body))))
                if guess == hash {
                    Issue.record("the stored hash gives the PIN away: \(pin)")
                    break
                }
            }
            // Online: a retry with a wrong PIN and one with the right PIN answer alike.
            let wrong = try await server.topUp(user, pin: "9999", idempotencyKey: "k1")
            let right = try await server.topUp(user, pin: user.pin, idempotencyKey: "k1")
            #expect(wrong.status == right.status && wrong.body == right.body)
            #expect(
                wrong.headers.first(name: "Idempotent-Replayed") == right.headers.first(name: "Idempotent-Replayed"))
            #expect(try await server.wallet(user).balance == 99_500, "paid once")
        }
    }

    @Test("upgrading erases the request hashes stored when they still covered the PIN", arguments: TestEngines.all)
    func upgradeErasesOldHashes(engine: DatabaseEngine) async throws {
        try await TestDatabase.with(engine, migrate: false) { database in
            // A store as version 7 left it, with one top-up's key.
            try await database.transaction { sql in
                try await sql.execute(
                    "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
                )
                for migration in Migrator.all where migration.version <= 7 {
                    for statement in migration.statements { try await sql.execute(statement) }
                    try await sql.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)",
                        [.int(migration.version), .text(migration.name)])
                }
                try await sql.execute(
                    "INSERT INTO users (id, phone, name, pin_hash, user_handle, created_at) VALUES ('usr_1', '+2348055501234', 'Ada', 'x', 'h', 0)"
                )
                try await sql.execute(
                    "INSERT INTO idempotency_keys (user_id, idempotency_key, request_hash, claim_id, state, created_at) VALUES ('usr_1', 'k', 'sha256-with-the-pin', 'c', 'done', 0)"
                )
            }
            try await Migrator.migrate(database, logger: TestDatabase.logger)
            let hash = try await database.read { sql in
                try await sql.first("SELECT request_hash FROM idempotency_keys")?.string("request_hash")
            }
            #expect(hash == "erased")
        }
    }

    @Test(
        "a JSON endpoint refuses text, form and multipart bodies with 415, and writes nothing",
        arguments: TestEngines.all)
    func onlyJSON(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let body = Array(
                try JSONEncoder().encode(
                    try await server.client.signupBody(phone: "08055501234", name: "Eve", pin: "4827")))
            for contentType in [
                "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/jsonp",
            ] {
                let response = try await server.client.send(
                    .POST, "/auth/signup", raw: body, headers: [("Content-Type", contentType)])
                #expect(
                    response.status == 415 && response.errorCode == "unsupported_media_type",
                    "\(contentType): \(response.text)")
            }
            let user = try await server.fundedUser()
            let topUp = try await server.client.send(
                .POST, "/user/topup",
                raw: Array(
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#.utf8),
                token: user.token, headers: [("Content-Type", "text/plain;charset=UTF-8")]
            )
            #expect(topUp.status == 415)
            #expect(try await LedgerAudit.count("users", server.database) == 1)
            #expect(try await server.wallet(user).balance == 100_000)
            let json = try await server.client.send(
                .POST, "/auth/signup", raw: body, headers: [("Content-Type", "Application/JSON; charset=utf-8")])
            #expect(json.status == 201, "\(json.text)")
        }
    }

    @Test(
        "the data directory: created 0700 with a 0600 database; one open to others is refused; a loose database file is tightened"
    )
    func dataDirectoryPermissions() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-perm-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fresh = root + "/fresh"
        let path = try DataDirectory.prepareDatabaseFile(in: fresh)
        #expect(try Self.mode(fresh) == 0o700)
        #expect(try Self.mode(path) == 0o600)

        let open = root + "/open"
        try FileManager.default.createDirectory(
            atPath: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(throws: DataDirectoryError.self) { try DataDirectory.prepareDatabaseFile(in: open) }
        #expect(!FileManager.default.fileExists(atPath: open + "/countersign.sqlite"))

        let loose = root + "/loose"
        try FileManager.default.createDirectory(
            atPath: loose, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(
            atPath: loose + "/countersign.sqlite", contents: nil, attributes: [.posixPermissions: 0o644])
        _ = FileManager.default.createFile(
            atPath: loose + "/countersign.sqlite-wal", contents: nil, attributes: [.posixPermissions: 0o644])
        _ = try DataDirectory.prepareDatabaseFile(in: loose)
        #expect(try Self.mode(loose + "/countersign.sqlite") == 0o600)
        #expect(try Self.mode(loose + "/countersign.sqlite-wal") == 0o600)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
            & 0o777
    }
}
