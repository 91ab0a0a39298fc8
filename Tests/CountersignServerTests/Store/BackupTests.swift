import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Logging
import Synchronization
import Testing

@Suite("Backup and restore (SQLite)")
struct BackupTests {
    @Test("a backup taken while top-ups run restores to books that balance, and the restored server serves them")
    func roundTripUnderLoad() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-backup-\(UUID())").path
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dataDirectory = root + "/data"
        let copy = root + "/copy.sqlite"
        let store = ["--data-dir", dataDirectory]
        let noPostgres = ["DATABASE_URL": ""]

        try await withHTTPClient { http in
            let server = try await ServeProcess(
                databaseURL: nil, dataDirectory: dataDirectory, http: http,
                extra: ["--no-rate-limits", "--no-pin-allowance"])
            let phone = "0806" + String(Int.random(in: 1_000_000..<9_999_999))
            let session = try await server.client.post(
                "/auth/signup", try await server.client.signupBody(phone: phone, name: "Backup test", pin: "4827")
            ).decode(SessionResponse.self)
            let funded = try await CommandLineTests.run(
                ["wallet", "fund", "--phone", phone, "--amount", "50000"] + store, environment: noPostgres)
            try #require(funded.status == 0, "\(funded.output)")

            // Top-ups from four clients until told to stop; the backup is taken in the middle.
            let progress = LoadProgress()
            let load = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            while progress.running.load(ordering: .relaxed) {
                                let answer = try await server.client.post(
                                    "/user/topup",
                                    TopUpRequest(
                                        amount: 100, productCode: "AIRTIME_MTN", recipientPhone: "08012345678",
                                        supplierSlug: nil, useCashback: nil, verificationToken: nil, pin: "4827"),
                                    token: session.sessionToken, headers: [("Idempotency-Key", UUID().uuidString)])
                                if answer.status == 200 { progress.paid.add(1, ordering: .relaxed) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            while progress.paid.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(20)) }
            let backup = try await CommandLineTests.run(["backup", "--to", copy] + store, environment: noPostgres)
            let paidAtBackup = progress.paid.load(ordering: .relaxed)
            while progress.paid.load(ordering: .relaxed) < paidAtBackup + 20 {
                try await Task.sleep(for: .milliseconds(20))
            }
            progress.running.store(false, ordering: .relaxed)
            try await load.value
            #expect(backup.status == 0, "\(backup.output)")
            #expect(backup.output.contains("integrity ok"), "\(backup.output)")
            let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600, "a backup holds PIN hashes and keys")
            let again = try await CommandLineTests.run(["backup", "--to", copy] + store, environment: noPostgres)
            #expect(again.status != 0 && again.output.contains("exists"), "never overwrites: \(again.output)")

            // Not under a running server.
            let refused = try await CommandLineTests.run(["restore", "--from", copy] + store, environment: noPostgres)
            #expect(refused.status != 0 && refused.output.contains("stop the server"), "\(refused.output)")
            #expect(await server.stop() == 0)

            // The copy: sound books, and some but not all of the top-ups.
            let inBackup = try await Self.topUps(in: copy)
            #expect(
                inBackup > 0 && inBackup < progress.paid.load(ordering: .relaxed),
                "\(inBackup) of \(progress.paid.load(ordering: .relaxed))")

            let restored = try await CommandLineTests.run(["restore", "--from", copy] + store, environment: noPostgres)
            #expect(restored.status == 0, "\(restored.output)")
            #expect(restored.output.contains("before-restore"), "the replaced database is kept: \(restored.output)")
            #expect(try await Self.topUps(in: dataDirectory + "/countersign.sqlite") == inBackup)

            // The restored store serves: the session from before the backup, the balance it recorded.
            let back = try await ServeProcess(databaseURL: nil, dataDirectory: dataDirectory, http: http)
            let wallet = try await back.client.get("/user/wallet", token: session.sessionToken).decode(
                WalletResponse.self)
            #expect(wallet.balance == 5_000_000 - Int64(inBackup) * 100)
            #expect(try await back.client.get("/health/ready").status == 200)
            #expect(await back.stop() == 0)
        }
    }

    @Test("restore refuses an unsound file and one from a newer schema; backup refuses PostgreSQL")
    func refusals() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-backup-\(UUID())").path
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let junk = root + "/junk.sqlite"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: junk))
        let unsound = try await CommandLineTests.run(
            ["restore", "--from", junk, "--data-dir", root + "/data"], environment: ["DATABASE_URL": ""])
        #expect(unsound.status != 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/data"), "refused before anything was touched")

        let migrated = try await CommandLineTests.run(
            ["migrate", "--data-dir", root + "/a"], environment: ["DATABASE_URL": ""])
        try #require(migrated.status == 0, "\(migrated.output)")
        let newer = root + "/newer.sqlite"
        let made = try await CommandLineTests.run(
            ["backup", "--to", newer, "--data-dir", root + "/a"], environment: ["DATABASE_URL": ""])
        try #require(made.status == 0, "\(made.output)")
        // Into a data directory never served: nothing to set aside, so nothing left beside it.
        let fresh = try await CommandLineTests.run(
            ["restore", "--from", newer, "--data-dir", root + "/c"], environment: ["DATABASE_URL": ""])
        #expect(fresh.status == 0, "\(fresh.output)")
        #expect(!fresh.output.contains("before-restore"), "\(fresh.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/c") == ["countersign.sqlite"])

        try await Self.addMigration(99_999, to: newer)
        let refused = try await CommandLineTests.run(
            ["restore", "--from", newer, "--data-dir", root + "/b"], environment: ["DATABASE_URL": ""])
        #expect(refused.status != 0 && refused.output.contains("99999"), "\(refused.output)")

        let postgres = try await CommandLineTests.run(
            ["backup", "--to", root + "/pg.sqlite", "--database-url", "postgres://u@127.0.0.1:1/d"])
        #expect(postgres.status != 0 && postgres.output.contains("pg_dump"), "\(postgres.output)")
    }

    /// Top-ups whose debit the SQLite file at `path` holds (completed or pending), after checking its books.
    static func topUps(in path: String) async throws -> Int {
        let database = try await SQLiteDatabase.open(path: path, readerCount: 1, logger: Logger(label: "backup-test"))
        do {
            try await LedgerAudit.check(database)
            let count = try await database.read { sql in
                try await sql.first(
                    // A copy taken mid-request can hold a top-up still pending: debited, the supplier not
                    // yet heard (its balance counts the debit). Seen once under CI's load.
                    "SELECT COUNT(*) AS n FROM wallet_transactions WHERE type = 'topup' AND status IN ('completed', 'pending')"
                )?
                .int("n") ?? -1
            }
            try await database.close()
            return Int(count)
        } catch {
            try? await database.close()
            throw error
        }
    }

    static func addMigration(_ version: Int64, to path: String) async throws {
        let database = try await SQLiteDatabase.open(path: path, readerCount: 1, logger: Logger(label: "backup-test"))
        try await database.transaction { sql in
            try await sql.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'future', 0)",
                [.integer(version)])
        }
        try await database.close()
    }
}

/// What the load clients share with the test: whether to go on, and how many top-ups were paid.
private final class LoadProgress: Sendable {
    let running = Atomic<Bool>(true)
    let paid = Atomic<Int>(0)
}
