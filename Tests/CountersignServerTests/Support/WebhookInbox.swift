import Foundation
import Hummingbird
import Synchronization

/// A webhook receiver on loopback for the tests: records every request to `/hook` (its Standard
/// Webhooks headers and body) and answers 500 to the first `failing` requests, 204 to the rest.
final class WebhookInbox: Sendable {
    struct Received: Sendable, Equatable {
        let id: String
        let timestamp: String
        let signature: String
        let body: String
        let status: Int
    }

    private let requests = Mutex<[Received]>([])
    private let failing: Mutex<Int>

    init(failing: Int = 0) { self.failing = Mutex(failing) }

    var all: [Received] { requests.withLock { $0 } }
    /// The requests answered 2xx.
    var accepted: [Received] { all.filter { $0.status < 300 } }

    var router: Router<BasicRequestContext> {
        let router = Router()
        router.post("/hook") { [self] request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let fail = failing.withLock { count -> Bool in
                guard count > 0 else { return false }
                count -= 1
                return true
            }
            requests.withLock {
                $0.append(
                    Received(
                        id: request.headers[.init("webhook-id")!] ?? "",
                        timestamp: request.headers[.init("webhook-timestamp")!] ?? "",
                        signature: request.headers[.init("webhook-signature")!] ?? "",
                        body: String(buffer: body), status: fail ? 500 : 204))
            }
            return Response(status: fail ? .internalServerError : .noContent)
        }
        return router
    }

    /// Runs `body` with the receiver on a loopback port; `body` gets the URL to register.
    func run<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        try await LoopbackHTTPServer.run(router, name: "webhook-inbox") { port in
            try await body("http://127.0.0.1:\(port)/hook")
        }
    }

    /// Waits (up to 30 s) until `count` requests have been accepted; what was accepted by then.
    @discardableResult
    func waitForAccepted(_ count: Int) async throws -> [Received] {
        for _ in 0..<600 where accepted.count < count { try await Task.sleep(for: .milliseconds(50)) }
        return accepted
    }

    /// Waits (up to 30 s) until `count` requests have arrived, whatever the answer.
    @discardableResult
    func waitForRequests(_ count: Int) async throws -> [Received] {
        for _ in 0..<600 where all.count < count { try await Task.sleep(for: .milliseconds(50)) }
        return all
    }

    /// Checks every accepted request's signature with the `standardwebhooks` Python package (the
    /// reference implementation of the spec); returns what it printed and its exit status.
    func verifyWithReferenceLibrary(secret: String) throws -> (status: Int32, output: String) {
        let messages = accepted.map {
            [
                "headers": ["webhook-id": $0.id, "webhook-timestamp": $0.timestamp, "webhook-signature": $0.signature],
                "body": $0.body,
            ] as [String: Any]
        }
        let input = try JSONSerialization.data(withJSONObject: ["secret": secret, "messages": messages])
        let script = """
            from json import load
            from sys import stdin
            from standardwebhooks.webhooks import Webhook
            spec = load(stdin)
            hook = Webhook(spec["secret"])
            for m in spec["messages"]:
                hook.verify(m["body"], m["headers"])
            print("verified", len(spec["messages"]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
