import CountersignAPI
import CountersignStore
import Foundation
import Testing

@testable import CountersignServer

/// Signed outbound webhooks, end to end: registered by an operator, recorded with the money
/// movement, delivered to a loopback receiver, signed as the `standardwebhooks` package verifies.
@Suite("Webhooks")
struct WebhookTests {
    /// Loopback receivers (http) allowed, and a worker that looks often.
    static func loopback(_ configuration: inout ServerConfiguration) {
        configuration.allowPrivateWebhookTargets = true
        configuration.webhookPollMillis = 20
    }

    static func operatorUser(_ server: LiveServer) async throws -> TestUser {
        let admin = try await server.signup(name: "Operator")
        _ = try await server.services.operators.setOperator(phone: admin.phone, true)
        return admin
    }

    static func register(
        _ server: LiveServer, _ admin: TestUser, url: String, events: [String] = ["*"], pin: String? = nil
    ) async throws -> APIResponse {
        try await server.client.post(
            "/operator/webhooks", WebhookEndpointCreateRequest(url: url, events: events, pin: pin ?? admin.pin),
            token: admin.token)
    }

    static func types(_ received: [WebhookInbox.Received]) throws -> [String] {
        try received.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any])["type"]
                as? String ?? ""
        }
    }

    @Test(
        "an operator funding and a top-up each send one signed webhook that the standardwebhooks package verifies",
        arguments: TestEngines.all)
    func signedDeliveries(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                let response = try await Self.register(server, admin, url: url)
                #expect(response.status == 201, "\(response.text)")
                let created = try response.decode(WebhookEndpointCreated.self)
                #expect(created.secret.hasPrefix("whsec_") && created.endpoint.events == ["*"])

                let user = try await server.fundedUser(balance: 5_000)
                let topUp = try await server.topUp(user, amount: 500, pin: user.pin)
                #expect(topUp.status == 200, "\(topUp.text)")
                let received = try await inbox.waitForAccepted(2)
                #expect(Set(try Self.types(received)) == ["wallet.credited", "topup.completed"])
                #expect(Set(received.map(\.id)).count == 2 && received.allSatisfy { $0.id.hasPrefix("msg_") })
                let verified = try inbox.verifyWithReferenceLibrary(secret: created.secret)
                #expect(verified.status == 0 && verified.output.contains("verified 2"), "\(verified.output)")
                // A wrong secret must not verify: the check above can fail.
                let forged = try inbox.verifyWithReferenceLibrary(secret: WebhookSigner.makeSecret())
                #expect(forged.status != 0)

                let list = try await server.client.get("/operator/webhooks", token: admin.token)
                #expect(list.status == 200 && !list.text.contains("whsec_"), "the secret is shown once only")
                #expect(try list.decode(WebhookEndpointList.self).endpoints.map(\.id) == [created.endpoint.id])
                let log = try await server.client.get(
                    "/operator/webhooks/\(created.endpoint.id)/deliveries", token: admin.token
                ).decode(WebhookDeliveryLog.self)
                #expect(log.attempts.count == 2 && log.attempts.allSatisfy { $0.statusCode == 204 })
            }
        }
    }

    @Test(
        "a bad URL, an unknown event, a wrong PIN or a user who is not an operator registers nothing",
        arguments: TestEngines.all)
    func refusals(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.operatorUser(server)
            let refusedURLs = [
                "http://hooks.example.com/x", "https://127.0.0.1/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x",
                "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[fe80::1]/x", "https://[fd00::1]/x",
                "https://0.0.0.0/x", "https://user:pw@hooks.example.com/x", "ftp://hooks.example.com/x",
                "https://hooks.example.com/" + String(repeating: "a", count: 2030), "not a url",
            ]
            for url in refusedURLs {
                let refused = try await Self.register(server, admin, url: url)
                #expect(refused.status == 422 && refused.errorCode == "webhook_url_refused", "\(url): \(refused.text)")
            }
            for events in [["topup.exploded"], ["*", "nope"]] {
                let refused = try await Self.register(server, admin, url: "https://hooks.example.com/x", events: events)
                #expect(refused.status == 422 && refused.errorCode == "unknown_webhook_event", "\(refused.text)")
            }
            let wrongPin = try await Self.register(server, admin, url: "https://hooks.example.com/x", pin: "1111")
            #expect(wrongPin.status == 401, "\(wrongPin.text)")
            let user = try await server.signup()
            let notOperator = try await server.client.post(
                "/operator/webhooks",
                WebhookEndpointCreateRequest(url: "https://hooks.example.com/x", events: ["*"], pin: user.pin),
                token: user.token)
            #expect(notOperator.status == 403 && notOperator.errorCode == "not_operator")
            #expect(try await LedgerAudit.count("webhook_endpoints", server.database) == 0)
            // At most 16 live endpoints, however many requests arrive at once.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await Self.register(server, admin, url: "https://hooks\(index).example.com/x").status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Parallel PIN checks of one operator wait their turn (429 pin_checks_busy); none gets past the cap.
            #expect(statuses.allSatisfy { [201, 422, 429].contains($0) }, "\(statuses)")
            var count = try await LedgerAudit.count("webhook_endpoints", server.database)
            while count < 16 {
                let added = try await Self.register(server, admin, url: "https://more\(count).example.com/x")
                try #require(added.status == 201, "\(added.text)")
                count += 1
            }
            let full = try await Self.register(server, admin, url: "https://one-too-many.example.com/x")
            #expect(full.status == 422 && full.errorCode == "webhook_endpoint_limit", "\(full.text)")
            #expect(try await LedgerAudit.count("webhook_endpoints", server.database) == 16)
            let missing = try await server.client.send(.DELETE, "/operator/webhooks/whe_nope", token: admin.token)
            #expect(missing.status == 404 && missing.errorCode == "webhook_endpoint_not_found")
        }
    }

    @Test(
        "a host name that resolves to loopback is refused at the attempt: nothing reaches the receiver, the log says why",
        arguments: TestEngines.all)
    func resolvedLoopbackRefused(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.webhookPollMillis = 20 }) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                let named = url.replacingOccurrences(of: "http://127.0.0.1", with: "https://localhost")
                let response = try await Self.register(server, admin, url: named)
                #expect(response.status == 201, "a name is not refused until it resolves: \(response.text)")
                let endpoint = try response.decode(WebhookEndpointCreated.self).endpoint
                _ = try await server.fundedUser(balance: 1_000)
                let log = try await Self.deliveryLog(server, admin, endpoint.id, atLeast: 1)
                let attempt = try #require(log.attempts.first)
                #expect(attempt.statusCode == nil && (attempt.error ?? "").contains("refused"), "\(attempt)")
                #expect(inbox.all.isEmpty)
            }
        }
    }

    @Test(
        "a failed delivery is retried after a backoff that grows, until the receiver takes it",
        arguments: TestEngines.all)
    func retriesWithBackoff(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox(failing: 2)
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                let endpoint = try await Self.register(server, admin, url: url).decode(WebhookEndpointCreated.self)
                _ = try await server.fundedUser(balance: 1_000)
                var delays: [Int64] = []
                for attempt in 1...2 {
                    try await inbox.waitForRequests(attempt)
                    let row = try await Self.waitForAttempts(attempt, server.database)
                    delays.append(row.next - row.last)
                    // The next attempt waits for the clock: move it past the backoff.
                    server.clock.advance(seconds: row.next - row.last < 5_000 ? 5 : 10)
                }
                let accepted = try await inbox.waitForAccepted(1)
                #expect(accepted.count == 1 && inbox.all.count == 3 && Set(inbox.all.map(\.id)).count == 1)
                // Base 5 s with jitter in its upper half, doubling: [2.5, 5] s, then [5, 10] s.
                #expect((2_500...5_000).contains(delays[0]) && (5_000...10_000).contains(delays[1]), "\(delays)")
                // The receiver answers before the worker records the attempt.
                let log = try await Self.deliveryLog(server, admin, endpoint.endpoint.id, atLeast: 3)
                #expect(log.attempts.map(\.statusCode) == [204, 500, 500])
            }
        }
    }

    /// The endpoint's delivery log once it lists `count` attempts (waiting up to 30 s).
    static func deliveryLog(_ server: LiveServer, _ admin: TestUser, _ endpointId: String, atLeast count: Int)
        async throws -> WebhookDeliveryLog
    {
        var log = WebhookDeliveryLog(endpointId: endpointId, attempts: [])
        for _ in 0..<600 where log.attempts.count < count {
            try await Task.sleep(for: .milliseconds(50))
            log = try await server.client.get("/operator/webhooks/\(endpointId)/deliveries", token: admin.token)
                .decode(WebhookDeliveryLog.self)
        }
        return log
    }

    /// Waits until the delivery (of `event`, or the only one) has `count` attempts; its next attempt
    /// and the time of the last.
    @discardableResult
    static func waitForAttempts(_ count: Int, _ database: any Database, event: String? = nil) async throws -> (
        next: Int64, last: Int64
    ) {
        for _ in 0..<600 {
            let row = try await database.read { sql in
                try await sql.first(
                    """
                    SELECT d.attempts, d.next_attempt_at,
                        (SELECT MAX(a.attempted_at) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS last
                    FROM webhook_deliveries d WHERE d.event_id = $1 OR $1 = ''
                    """, [.text(event ?? "")])
            }
            if let row, try row.int("attempts") == count {
                return (try row.int("next_attempt_at"), try row.int("last"))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the delivery never reached \(count) attempts")
    }

    @Test(
        "events of one resource arrive in order: a later one waits while an earlier one is retried",
        arguments: TestEngines.all)
    func orderedPerResource(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox(failing: 1)
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                _ = try await Self.register(server, admin, url: url)
                let now = server.clock.wallClock.nowMillis()
                var ids: [String] = []
                for step in ["order.paid", "order.shipped", "order.completed"] {
                    let id = try await server.database.transaction { sql in
                        try await WebhookOutbox().record(
                            type: step, resourceType: "order", resourceId: "ord_ordered", data: ["step": step],
                            now: now, on: sql)
                    }
                    ids.append(try #require(id))
                }
                try await inbox.waitForRequests(1)
                try await Self.waitForAttempts(1, server.database, event: ids[0])
                server.clock.advance(seconds: 5)
                try await inbox.waitForAccepted(3)
                #expect(inbox.all.map(\.id) == [ids[0], ids[0], ids[1], ids[2]], "\(inbox.all.map(\.id))")
            }
        }
    }

    @Test(
        "50 fundings at once: 50 events, and two workers sharing the store send each exactly once",
        arguments: TestEngines.all)
    func fiftyEventsTwoWorkers(engine: DatabaseEngine) async throws {
        // The server's own worker passes once at start, then sleeps: the two below do the work.
        try await LiveServer.run(
            engine,
            configure: {
                $0.allowPrivateWebhookTargets = true
                $0.webhookPollMillis = 3_600_000
            }
        ) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                _ = try await Self.register(server, admin, url: url, events: ["wallet.credited"])
                let user = try await server.signup()
                let wallets = server.services.wallets
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask {
                            _ = try await wallets.fund(phone: user.phone, amount: 100, reference: "load-\(index)")
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(try await LedgerAudit.count("webhook_events", server.database) == 50)
                let base = server.services.webhookWorker
                // Two live processes, as the store knows them: a lease of neither is taken over.
                let now = server.clock.wallClock.nowMillis()
                try await server.database.transaction { sql in
                    for index in 0..<2 {
                        try await sql.serverInstances.renew(
                            ServerInstanceRecord(
                                id: "inst_worker\(index)", pid: 0, pidNamespace: nil, startedAt: now,
                                leaseExpiresAt: now + 3_600_000))
                    }
                }
                let workers = (0..<2).map { index in
                    WebhookDeliveryWorker(
                        database: base.database, clock: base.clock,
                        instance: ServerInstance(id: "inst_worker\(index)", pid: 0, pidNamespace: nil),
                        ready: base.ready, sender: base.sender, retry: base.retry, metrics: base.metrics,
                        logger: base.logger, interval: .milliseconds(10))
                }
                for _ in 0..<200 where inbox.accepted.count < 50 {
                    async let first = workers[0].pass()
                    async let second = workers[1].pass()
                    _ = await (first, second)
                }
                #expect(inbox.all.count == 50 && Set(inbox.all.map(\.id)).count == 50, "\(inbox.all.count) requests")
                #expect(try Self.types(inbox.all).allSatisfy { $0 == "wallet.credited" })
            }
        }
    }

    @Test(
        "a delivery leased by a process that is gone is sent at once; one leased by a live process waits",
        arguments: TestEngines.all)
    func abandonedLeaseTakenOver(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                _ = try await Self.register(server, admin, url: url)
                let (now, instance) = (server.clock.wallClock.nowMillis(), server.services.instance.id)
                // Two events, each as if leased for an hour: by this live process, and by one that crashed.
                let ids = try await server.database.transaction { sql in
                    var ids: [String] = []
                    for (resource, owner) in [("live", instance), ("dead", "inst_crashed")] {
                        let id = try await WebhookOutbox().record(
                            type: "wallet.credited", resourceType: "test", resourceId: resource, data: ["id": resource],
                            now: now, on: sql)
                        try await sql.execute(
                            "UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $2 WHERE event_id = $3",
                            [.text(owner), .integer(now + 3_600_000), .text(id ?? "")])
                        ids.append(id ?? "")
                    }
                    return ids
                }
                let accepted = try await inbox.waitForAccepted(1)
                #expect(accepted.map(\.id) == [ids[1]], "\(accepted.map(\.id))")
                // The live process's lease still holds: its delivery is not sent by anyone else.
                try await Self.waitForAttempts(1, server.database, event: ids[1])
                #expect(inbox.all.map(\.id) == [ids[1]])
            }
        }
    }

    @Test(
        "a settled refund and an operator's reversal each send their event, the reversal after the original's",
        arguments: TestEngines.all)
    func refundAndReversalEvents(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                let events = ["refund.succeeded", "refund.failed", "transfer.completed", "transfer.reversed"]
                let created = try await Self.register(server, admin, url: url, events: events).decode(
                    WebhookEndpointCreated.self)

                let (seller, _, order) = try await RefundTests.paidOrder(server)
                let refund = try await RefundTests.refund(server, order.id, 2_500, token: seller.token)
                #expect(refund.status == 201, "\(refund.text)")
                #expect(try refund.decode(RefundResponse.self).status == .succeeded)
                let (_, _, transferId) = try await ReversalTests.completedTransfer(server)
                let reversed = try await ReversalTests.reverse(
                    server, "/operator/transfers/\(transferId)/reverse", token: admin.token)
                #expect(reversed.status == 201, "\(reversed.text)")

                let received = try await inbox.waitForAccepted(3)
                let types = try Self.types(received)
                // Events of one resource arrive in order; the refund is another resource.
                #expect(types.filter { $0.hasPrefix("transfer.") } == ["transfer.completed", "transfer.reversed"])
                let refundBody = try #require(received.first { $0.body.contains("refund.succeeded") }?.body)
                #expect(refundBody.contains("\"amount\":2500") && refundBody.contains(order.id))
                let reversalBody = try #require(received.first { $0.body.contains("transfer.reversed") }?.body)
                #expect(reversalBody.contains(transferId) && reversalBody.contains("Sent to the wrong number"))
                let verified = try inbox.verifyWithReferenceLibrary(secret: created.secret)
                #expect(verified.status == 0 && verified.output.contains("verified 3"), "\(verified.output)")
            }
        }
    }

    @Test(
        "money added by card sends funding.succeeded, a declined card funding.failed, both verified",
        arguments: TestEngines.all)
    func fundingEvents(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: Self.loopback) { server in
            let inbox = WebhookInbox()
            try await inbox.run { url in
                let admin = try await Self.operatorUser(server)
                let created = try await Self.register(server, admin, url: url, events: ["funding.*"])
                #expect(created.errorCode == "unknown_webhook_event", "types are named in full, or `*`")
                let endpoint = try await Self.register(
                    server, admin, url: url, events: ["funding.succeeded", "funding.failed", "funding.canceled"]
                ).decode(WebhookEndpointCreated.self)

                let user = try await server.signup()
                for number in ["4242424242424242", "4000000000000002"] {
                    let card = try await OrderPaymentTests.card(server, user, number)
                    let made = try await WalletFundingTests.create(
                        server, user,
                        CreateFundingRequest(amount: 2_000, currency: "EUR", method: .card, paymentMethodId: card))
                    #expect(made.status == 201, "\(made.text)")
                }
                let received = try await inbox.waitForAccepted(2)
                #expect(Set(try Self.types(received)) == ["funding.succeeded", "funding.failed"])
                let failed = try #require(received.first { $0.body.contains("funding.failed") }?.body)
                #expect(failed.contains("card_declined") && failed.contains(user.userId))
                let verified = try inbox.verifyWithReferenceLibrary(secret: endpoint.secret)
                #expect(verified.status == 0 && verified.output.contains("verified 2"), "\(verified.output)")
            }
        }
    }

    @Test("signatures match the Standard Webhooks example (known answer)")
    func knownAnswer() throws {
        let signer = try #require(WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(
            signer.signature(
                id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: #"{"test": 2432232314}"#)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(WebhookSigner(secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
    }

    @Test("private, loopback, link-local, unique-local, multicast and unspecified addresses are refused, mapped too")
    func forbiddenAddresses() throws {
        let refused = [
            "127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
            "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd12::1", "ff02::1", "::ffff:127.0.0.1",
            "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:7f00:1::",
        ]
        for text in refused {
            let bytes = try #require(WebhookTargetPolicy.literal(text), "\(text)")
            #expect(WebhookTargetPolicy.isForbidden(bytes), "\(text)")
        }
        for text in ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            let bytes = try #require(WebhookTargetPolicy.literal(text), "\(text)")
            #expect(!WebhookTargetPolicy.isForbidden(bytes), "\(text)")
        }
    }
}

/// What operators do when a receiver is down: the endpoint disabled after three days, enabled by
/// hand, an event sent again; and the metrics that show it.
@Suite("Webhook operations")
struct WebhookOperationsTests {
    @Test(
        "three days of failures give the delivery up and disable the endpoint; enable and redeliver send it again",
        arguments: TestEngines.all)
    func disabledEnabledRedelivered(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: WebhookTests.loopback) { server in
            let inbox = WebhookInbox(failing: 2)
            try await inbox.run { url in
                let admin = try await WebhookTests.operatorUser(server)
                let endpoint = try await WebhookTests.register(server, admin, url: url).decode(
                    WebhookEndpointCreated.self
                ).endpoint
                _ = try await server.fundedUser(balance: 1_000)
                try await WebhookTests.waitForAttempts(1, server.database)
                server.clock.advance(seconds: 3 * 86_400 + 1)
                try await inbox.waitForRequests(2)
                try await WebhookTests.waitForAttempts(2, server.database)
                let listed = try await server.client.get("/operator/webhooks", token: admin.token).decode(
                    WebhookEndpointList.self)
                let disabled = try #require(listed.endpoints.first)
                #expect(!disabled.enabled && disabled.disabledAt != nil, "\(disabled)")
                let status = try await server.database.read { sql in
                    try await sql.first("SELECT status FROM webhook_deliveries")?.string("status")
                }
                #expect(status == "failed")
                // Nothing is recorded for a disabled endpoint.
                _ = try await server.services.wallets.fund(phone: admin.phone, amount: 100, reference: nil)
                #expect(try await LedgerAudit.count("webhook_events", server.database) == 1)

                let enabled = try await server.client.post(
                    "/operator/webhooks/\(endpoint.id)/enable", token: admin.token)
                #expect(enabled.status == 200)
                #expect(try enabled.decode(WebhookEndpointSummary.self).enabled)
                let eventId = try #require(inbox.all.first?.id)
                let again = try await server.client.post(
                    "/operator/webhooks/\(endpoint.id)/events/\(eventId)/redeliver", token: admin.token)
                #expect(again.status == 202, "\(again.text)")
                let accepted = try await inbox.waitForAccepted(1)
                #expect(accepted.map(\.id) == [eventId], "the same webhook-id, so a receiver can tell")
                let unknown = try await server.client.post(
                    "/operator/webhooks/\(endpoint.id)/events/msg_nope/redeliver", token: admin.token)
                #expect(unknown.status == 404 && unknown.errorCode == "webhook_event_not_found")

                let actions = try await server.client.get("/operator/actions", token: admin.token).decode(
                    OperatorActionList.self
                ).actions.map(\.action)
                #expect(actions.prefix(3) == ["redeliver_webhook", "enable_webhook", "add_webhook"], "\(actions)")
                let metrics = String(decoding: server.services.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains("countersign_webhook_attempts_total{outcome=\"failed\"}"), "\(metrics)")
                #expect(metrics.contains("countersign_webhook_attempts_total{outcome=\"retry\"}"))
                #expect(metrics.contains("worker=\"webhooks\""))
            }
        }
    }

    @Test("countersign webhooks add, list and remove work on the store, and refuse what the API refuses")
    func terminalCommands() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "countersign-webhooks-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        let store = ["--data-dir", dataDirectory]
        let environment = ["DATABASE_URL": ""]
        let migrated = try await CommandLineTests.run(["migrate"] + store, environment: environment)
        try #require(migrated.status == 0, "\(migrated.output)")
        let added = try await CommandLineTests.run(
            ["webhooks", "add", "--url", "https://erp.example/hooks", "--event", "transfer.completed"] + store,
            environment: environment)
        #expect(added.status == 0 && added.output.contains("secret whsec_"), "\(added.output)")
        let id = try #require(
            added.output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("whe_") }.map(String.init))
        let listed = try await CommandLineTests.run(["webhooks", "list"] + store, environment: environment)
        #expect(listed.output.contains(id) && listed.output.contains("https://erp.example/hooks"), "\(listed.output)")
        #expect(!listed.output.contains("whsec_"), "the secret is shown once only")
        let refused = try await CommandLineTests.run(
            ["webhooks", "add", "--url", "https://127.0.0.1/x"] + store, environment: environment)
        #expect(refused.status != 0 && refused.output.contains("internal address"), "\(refused.output)")
        let removed = try await CommandLineTests.run(["webhooks", "remove", id] + store, environment: environment)
        #expect(removed.status == 0, "\(removed.output)")
        let empty = try await CommandLineTests.run(["webhooks", "list"] + store, environment: environment)
        #expect(empty.output.contains("No webhook endpoints."), "\(empty.output)")
    }
}
