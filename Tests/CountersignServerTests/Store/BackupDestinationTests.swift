import CountersignStore
import Foundation
import Testing

/// A backup never replaces what holds its destination's name, whenever it appeared.
@Suite("Backup destination (SQLite)")
struct BackupDestinationTests {
    @Test("publishing a copy never replaces a file that appeared meanwhile, nor a symbolic link, even dangling")
    func publishNeverReplaces() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let partial = root + "/copy.partial"
        try Data("the copy".utf8).write(to: URL(fileURLWithPath: partial))

        // A file created at the destination while the copy ran, after any check made before it.
        let taken = root + "/taken.sqlite"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: taken))
        #expect(throws: DatabaseError.self) { try SQLiteBackup.publish(partial, as: taken) }
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "someone else's")

        // A dangling symbolic link: rename() would replace the link, and a write through it would
        // create its target.
        let link = root + "/link.sqlite"
        let target = root + "/elsewhere.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: DatabaseError.self) { try SQLiteBackup.publish(partial, as: link) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(!FileManager.default.fileExists(atPath: target))

        // Once the name is free, the copy takes it and its temporary name is gone.
        let free = root + "/free.sqlite"
        try SQLiteBackup.publish(partial, as: free)
        #expect(try String(contentsOfFile: free, encoding: .utf8) == "the copy")
        #expect(!FileManager.default.fileExists(atPath: partial))
    }

    @Test("countersign backup refuses a destination that is a symbolic link, and leaves nothing behind")
    func backupRefusesSymbolicLink() async throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let migrated = try await CommandLineTests.run(
            ["migrate", "--data-dir", root + "/data"], environment: ["DATABASE_URL": ""])
        try #require(migrated.status == 0, "\(migrated.output)")
        let link = root + "/backup.sqlite"
        let target = root + "/elsewhere.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let refused = try await CommandLineTests.run(
            ["backup", "--to", link, "--data-dir", root + "/data"], environment: ["DATABASE_URL": ""])
        #expect(refused.status != 0 && refused.output.contains("symbolic link"), "\(refused.output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["backup.sqlite", "data"])
    }

    static func temporaryDirectory() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("countersign-backup-\(UUID())").path
        try FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return root
    }
}
