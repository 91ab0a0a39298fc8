import Foundation

/// How many test databases may be in use on the one PostgreSQL server at once.
///
/// Swift Testing starts every test case it can at the same time. Unbounded, the PostgreSQL half of
/// the suite had about 150 databases alive together, each with its server's pool and workers:
/// 1,200 backends on a 2-core machine (load average 13–15), statements waiting 10 s on a lock
/// whose holder could not get the CPU, and transfers that missed their tests' deadlines now and
/// then. A test that holds a slot runs at the pace its deadlines assume; the others wait to start.
///
/// A test case takes one slot however many databases it nests (a server process inside a test's
/// own server, say): the holder is marked in a task-local, which child tasks inherit, so nesting
/// never waits on itself.
actor PostgresTestSlots {
    /// Four test databases a core: enough to keep PostgreSQL and the servers busy, not enough to
    /// starve either. `COUNTERSIGN_TEST_PG_SLOTS` overrides it.
    static let shared = PostgresTestSlots(
        limit: ProcessInfo.processInfo.environment["COUNTERSIGN_TEST_PG_SLOTS"].flatMap { Int($0) }.map {
            max(1, $0)
        } ?? 4 * ProcessInfo.processInfo.activeProcessorCount)

    @TaskLocal private static var holding = false

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { free = limit }

    /// Runs `body` holding a slot (or the one this task already holds).
    static func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if holding { return try await body() }
        await shared.acquire()
        do {
            let result = try await $holding.withValue(true) { try await body() }
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the slot to the longest waiter, or frees it.
    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
