import CountersignAPI
import CountersignCore
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// Transfers with a fee quote, end to end over real HTTP: the server moves the document, the
/// device signs the quote it was shown, the money moves once, in one balanced entry.
@Suite("Transfers")
struct TransferTests {
    @Test(
        "the seed's flow: quote with fees, signed, executed; the stream shows every version", arguments: TestEngines.all
    )
    func happyPath(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup(name: "Bola")
            let created = try await server.createTransfer(payer, to: payee.phone, amount: 10_000, note: "rent")
            #expect(created.status == 201)
            let first = try created.decode(TransferDocument.self)
            #expect(first.status == .pendingPayeeLookup)
            #expect(first.sequence == 1)
            #expect(first.quote == nil && first.challenge == nil)

            // The whole history from the start, then live versions.
            let stream = try await EventStreamClient.open(
                server.client, path: "/transfers/\(first.id)/events", token: payer.token, lastEventID: "0")
            defer { stream.close() }
            #expect(stream.status == 200)
            #expect(stream.contentType?.hasPrefix("text/event-stream") == true)
            let quoted = await stream.wait {
                $0.last.map { (try? $0.document().status) == .authorizationRequired } ?? false
            }
            #expect(quoted.map(\.id) == [1, 2, 3])
            #expect(
                try quoted.map { try $0.document().status } == [
                    .pendingPayeeLookup, .pendingQuote, .authorizationRequired,
                ])
            #expect(quoted.allSatisfy { $0.event == "message" }) // unnamed: EventSource's `message`
            // A wait that timed out returns what came: a failed expectation, never an index out of range.
            try #require(quoted.count == 3, "\(quoted.map(\.id))")
            let document = try quoted[2].document()
            #expect(document.payeeName == "Bola")

            // 10,000 + ₦10.00 fixed + 0.5% (50) = 11,050.
            let quote = try #require(document.quote)
            #expect(quote.amount == 10_000)
            #expect(
                quote.fees == [
                    .init(name: "Transfer fee", amount: 1_000), .init(name: "Service fee (0.5%)", amount: 50),
                ])
            #expect(quote.totalFees == 1_050 && quote.total == 11_050 && quote.currency == "NGN")
            #expect(quote.transferId == first.id && quote.isConsistent)
            // The device can check that the challenge covers exactly this quote.
            let challenge = try #require(document.challenge)
            #expect(
                Base64URL.encode(quote.challenge(nonce: try #require(Base64URL.decode(challenge.nonce))))
                    == challenge.challenge)
            #expect(challenge.rpId == LiveServer.rpId)
            #expect(challenge.allowCredentials.map(\.id) == [Base64URL.encode(try #require(payer.device).credentialId)])

            let authorized = try await server.authorizeTransfer(payer, document)
            #expect(authorized.status == 200, "\(authorized.text)")
            #expect(try authorized.decode(TransferDocument.self).status == .authorized)

            let all = await stream.wait { $0.count >= 5 }
            #expect(
                try all.map { try $0.document().status } == [
                    .pendingPayeeLookup, .pendingQuote, .authorizationRequired, .authorized, .success,
                ])
            try #require(all.count >= 5, "\(all.map(\.id))")
            #expect(try all[4].document().challenge == nil)
            #expect(await stream.waitForEnd(), "the server ends the stream after a final status")

            #expect(try await server.wallet(payer).balance == 100_000 - 11_050)
            #expect(try await server.wallet(payee).balance == 10_000)
            #expect(try await server.systemBalance("sys:transfer_fees:NGN") == 1_050)
            let payerHistory = try await server.client.get("/user/transactions", token: payer.token).decode(
                TransactionPage.self)
            #expect(payerHistory.transactions.first?.type == "transfer_out")
            #expect(payerHistory.transactions.first?.amount == 11_050)
            #expect(payerHistory.transactions.first?.authorizedBy == "biometric")
            #expect(payerHistory.transactions.first?.recipientPhone == PhoneNumber(payee.phone)?.value)
            let payeeHistory = try await server.client.get("/user/transactions", token: payee.token).decode(
                TransactionPage.self)
            #expect(payeeHistory.transactions.map(\.type) == ["transfer_in"])
            // Both sides see who was on the other side, the payer's note and the transfer's reference.
            let sent = try #require(payerHistory.transactions.first)
            #expect(sent.counterpartyName == "Bola" && sent.note == "rent" && sent.fees == 1_050)
            #expect(sent.reference == first.id)
            let received = try #require(payeeHistory.transactions.first)
            #expect(received.counterpartyName == "Ada" && received.note == "rent" && received.fees == nil)
            #expect(received.reference == first.id && received.amount == 10_000)
            try await LedgerAudit.check(server.database)
            // One ledger entry for the transfer, with three postings.
            let entries = try await server.database.read { sql in
                try await sql.query(
                    "SELECT id FROM ledger_transactions WHERE kind = 'transfer' AND reference = $1", [.text(first.id)])
            }
            #expect(entries.count == 1)
        }
    }

    @Test(
        "a reconnect with Last-Event-ID resumes after that version, without gaps or repeats", arguments: TestEngines.all
    )
    func resume(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            #expect(document.status == .authorizationRequired)

            // Without Last-Event-ID: the current document first.
            let fresh = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", token: payer.token)
            let current = await fresh.wait { !$0.isEmpty }
            fresh.close()
            #expect(current.map(\.id) == [3])

            let resumed = try await EventStreamClient.open(
                server.client, path: "/transfers/\(document.id)/events", token: payer.token, lastEventID: "2")
            defer { resumed.close() }
            #expect(await resumed.wait { !$0.isEmpty }.map(\.id) == [3])
            #expect(try await server.client.post("/transfers/\(document.id)/decline", token: payer.token).status == 200)
            let events = await resumed.wait { $0.count >= 2 }
            #expect(events.map(\.id) == [3, 4])
            #expect(try events.last?.document().status == .declined)
            #expect(await resumed.waitForEnd())

            let bad = try await server.client.send(
                .GET, "/transfers/\(document.id)/events", token: payer.token, headers: [("Last-Event-ID", "three")])
            #expect(bad.status == 400 && bad.errorCode == "invalid_last_event_id")
        }
    }

    @Test("declined fees: nothing moves, and the transfer takes no further command", arguments: TestEngines.all)
    func declined(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 50_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            let declined = try await server.client.post("/transfers/\(document.id)/decline", token: payer.token)
            #expect(declined.status == 200)
            #expect(try declined.decode(TransferDocument.self).status == .declined)
            let late = try await server.authorizeTransfer(payer, document)
            #expect(late.status == 409 && late.errorCode == "invalid_state")
            #expect(
                try await server.client.post("/transfers/\(document.id)/cancel", token: payer.token).errorCode
                    == "invalid_state")
            #expect(try await server.wallet(payer).balance == 50_000)
            #expect(try await server.wallet(payee).balance == 0)
            #expect(try await LedgerAudit.count("ledger_transactions WHERE kind = 'transfer'", server.database) == 0)
        }
    }

    @Test(
        "a signature over other fees, or by another user's key, fails the transfer; nothing moves",
        arguments: TestEngines.all)
    func tamperedQuote(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 50_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            // The device is shown lower fees and signs those: the server's challenge differs.
            var cheaper = try #require(document.quote)
            cheaper.fees[1].amount = 1
            let challenge = try #require(document.challenge)
            let nonce = try #require(Base64URL.decode(challenge.nonce))
            let forged = try server.assertion(
                try #require(payer.device), challenge: Base64URL.encode(cheaper.challenge(nonce: nonce)))
            let refused = try await server.authorizeTransfer(payer, document, body: forged)
            #expect(refused.status == 401 && refused.errorCode == "authorization_failed")
            let failed = try await server.client.get("/transfers/\(document.id)", token: payer.token).decode(
                TransferDocument.self)
            #expect(failed.status == .failed)
            #expect(failed.error?.code == "authorization_failed")
            #expect(try await server.wallet(payer).balance == 50_000)

            // Another user's device over the right challenge: refused too.
            let second = try await server.quotedTransfer(payer, to: payee.phone)
            let stranger = try await server.registerDevice(try await server.signup())
            let foreign = try server.assertion(
                try #require(stranger.device), challenge: try #require(second.challenge).challenge)
            #expect(try await server.authorizeTransfer(payer, second, body: foreign).status == 401)
            #expect(try await server.wallet(payer).balance == 50_000)
            #expect(try await LedgerAudit.count("ledger_transactions WHERE kind = 'transfer'", server.database) == 0)
        }
    }

    @Test("only the owner sees or commands a transfer: 404 for anyone else", arguments: TestEngines.all)
    func ownership(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            let other = try await server.registerDevice(try await server.signup())
            #expect(try await server.client.get("/transfers/\(document.id)", token: other.token).status == 404)
            #expect(try await server.client.get("/transfers/\(document.id)/events", token: other.token).status == 404)
            #expect(try await server.client.post("/transfers/\(document.id)/decline", token: other.token).status == 404)
            let signed = try server.assertion(
                try #require(other.device), challenge: try #require(document.challenge).challenge)
            #expect(
                try await server.client.post("/transfers/\(document.id)/authorization", signed, token: other.token)
                    .status == 404)
            #expect(try await server.client.get("/transfers/\(document.id)", token: payee.token).status == 404)
            #expect(try await server.client.get("/transfers/tr_unknown", token: payer.token).status == 404)
            #expect(try await server.client.get("/transfers/\(document.id)").status == 401)
            // Untouched by all of that.
            #expect(
                try await server.client.get("/transfers/\(document.id)", token: payer.token).decode(
                    TransferDocument.self
                ).status == .authorizationRequired)
        }
    }

    @Test(
        "a quote nobody authorizes expires; authorizing a lapsed quote is 409 quote_expired", arguments: TestEngines.all
    )
    func expiry(engine: DatabaseEngine) async throws {
        // The worker's timer is slowed so that the authorization, not the worker, meets the lapsed quote.
        try await LiveServer.run(engine, configure: { $0.transferPollMillis = 600_000 }) { server in
            let payer = try await server.fundedUser(balance: 50_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            #expect(document.status == .authorizationRequired)
            // Let a pass the worker may still have queued (PostgreSQL echoes our own NOTIFY) finish
            // before time moves on.
            try await Task.sleep(for: .milliseconds(500))
            server.clock.advance(seconds: 301)
            let late = try await server.authorizeTransfer(payer, document)
            #expect(late.status == 409 && late.errorCode == "quote_expired")
            #expect(
                try await server.client.get("/transfers/\(document.id)", token: payer.token).decode(
                    TransferDocument.self
                ).status == .expired)
            #expect(try await server.wallet(payer).balance == 50_000)
        }
        // With the worker's timer running, the quote expires on its own.
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 50_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            server.clock.advance(seconds: 299)
            try await Task.sleep(for: .milliseconds(300))
            #expect(
                try await server.client.get("/transfers/\(document.id)", token: payer.token).decode(
                    TransferDocument.self
                ).status == .authorizationRequired)
            server.clock.advance(seconds: 2)
            let expired = try await server.awaitTransfer(payer, id: document.id) { $0.status.isFinal }
            #expect(expired.status == .expired)
        }
    }

    @Test("too little money at execution ends in FAILED insufficient_funds, nothing moved", arguments: TestEngines.all)
    func insufficientFunds(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 11_050)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone, amount: 10_000)
            // Between the quote and the signature the payer spends: enough for the amount, not the fees.
            #expect(try await server.topUp(payer, amount: 550, pin: payer.pin).status == 200)
            let authorized = try await server.authorizeTransfer(payer, document)
            #expect(authorized.status == 200)
            let final = try await server.awaitTransfer(payer, id: document.id) { $0.status.isFinal }
            #expect(final.status == .failed)
            #expect(final.error?.code == "insufficient_funds")
            #expect(try await server.wallet(payer).balance == 10_500)
            #expect(try await server.wallet(payee).balance == 0)
            #expect(try await server.systemBalance("sys:transfer_fees:NGN") == 0)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "what can be refused before a signature is refused at creation: no quote, nothing written",
        arguments: TestEngines.all)
    func refusedBeforeQuote(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 430_000)
            let payee = try await server.signup()
            // The amount alone is over the balance, and the amount plus its fees is.
            let huge = try await server.createTransfer(payer, to: payee.phone, amount: 999_999_900)
            #expect(huge.status == 422 && huge.errorCode == "insufficient_funds", "\(huge.text)")
            let withFees = try await server.createTransfer(payer, to: payee.phone, amount: 429_000)
            #expect(withFees.status == 422 && withFees.errorCode == "insufficient_funds", "\(withFees.text)")
            // A mistyped number is an error on the form, not a failed transfer in the history.
            let unknown = try await server.createTransfer(payer, to: "08099999999")
            #expect(unknown.status == 422 && unknown.errorCode == "payee_not_found", "\(unknown.text)")
            let count = try await server.database.read { sql in
                try await sql.first("SELECT COUNT(*) AS n FROM transfers", [])?.int("n")
            }
            #expect(count == 0)
            let history = try await server.client.get("/user/transactions", token: payer.token).decode(
                TransactionPage.self)
            #expect(history.transactions.allSatisfy { $0.type != "transfer_out" })
            // What the wallet can pay is quoted.
            let fits = try await server.quotedTransfer(payer, to: payee.phone, amount: 420_000)
            #expect(fits.status == .authorizationRequired)
        }
    }

    @Test("an amount over the most a transfer moves is refused in the currency as well as in minor units")
    func amountOverTheMost() async throws {
        try await LiveServer.run(.sqlite) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let most = FeeSchedule.standard.maximumAmount
            let over = try await server.createTransfer(payer, to: payee.phone, amount: most + 1)
            #expect(over.status == 400 && over.errorCode == "invalid_amount", "\(over.text)")
            let message = try over.decode(ErrorResponse.self).error.message
            #expect(message.contains(Currency.ngn.format(most)), "people read naira, not only minor units: \(message)")
        }
    }

    @Test(
        "Idempotency-Key: required; a retry returns the same transfer; another body is refused",
        arguments: TestEngines.all)
    func idempotency(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let missing = try await server.createTransfer(payer, to: payee.phone, key: "")
            #expect(missing.status == 400 && missing.errorCode == "missing_idempotency_key")
            let first = try await server.createTransfer(payer, to: payee.phone, amount: 7_000, key: "k-1")
            let again = try await server.createTransfer(payer, to: payee.phone, amount: 7_000, key: "k-1")
            #expect(first.status == 201)
            #expect(again.status == 200)
            #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try again.decode(TransferDocument.self).id == first.decode(TransferDocument.self).id)
            let other = try await server.createTransfer(payer, to: payee.phone, amount: 7_001, key: "k-1")
            #expect(other.status == 422 && other.errorCode == "idempotency_key_reused")
            #expect(try await LedgerAudit.count("transfers", server.database) == 1)

            // Ten concurrent sends of one new key make one transfer.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await server.createTransfer(payer, to: payee.phone, amount: 3_000, key: "k-2").status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 200 })
            #expect(try await LedgerAudit.count("transfers", server.database) == 2)
        }
    }

    @Test("one assertion sent twice at once authorizes once; the money moves once", arguments: TestEngines.all)
    func concurrentAuthorization(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            let body = try server.transferAssertion(payer, document)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await server.authorizeTransfer(payer, document, body: body).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            // The payer's own race is not an attack: the rest are told the transfer moved on, and
            // nothing counts towards the payment lock or disables the key.
            #expect(statuses.filter { $0 == 409 }.count == 7, "\(statuses)")
            let final = try await server.awaitTransfer(payer, id: document.id) { $0.status.isFinal }
            #expect(final.status == .success)
            #expect(try await server.wallet(payee).balance == 10_000)
            #expect(try await server.wallet(payer).balance == 100_000 - 11_050)
            try await Self.expectKeyUnharmed(server, payer, payee)
            try await LedgerAudit.check(server.database)
        }
    }

    @Test(
        "two distinct valid assertions racing for one transfer: one authorizes, the key stays usable",
        arguments: TestEngines.all)
    func distinctAssertionsRace(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup()
            let document = try await server.quotedTransfer(payer, to: payee.phone)
            // The device signs twice: the second assertion's counter is ahead of the first's.
            let bodies = [try server.transferAssertion(payer, document), try server.transferAssertion(payer, document)]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    let body = bodies[index % 2]
                    group.addTask { try await server.authorizeTransfer(payer, document, body: body).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 5, "\(statuses)")
            _ = try await server.awaitTransfer(payer, id: document.id) { $0.status.isFinal }
            try await Self.expectKeyUnharmed(server, payer, payee)
        }
    }

    /// No failure counted against `payer`, their key not flagged, and a next transfer authorizes.
    static func expectKeyUnharmed(_ server: LiveServer, _ payer: TestUser, _ payee: TestUser) async throws {
        let state = try await server.database.read { sql in
            try await sql.first(
                """
                SELECT u.failed_payment_auths, (SELECT COUNT(*) FROM credentials c
                    WHERE c.user_id = u.id AND c.flagged_at IS NOT NULL) AS flagged
                FROM users u WHERE u.id = $1
                """, [.text(payer.userId)])
        }
        #expect(try state?.int("failed_payment_auths") == 0)
        #expect(try state?.int("flagged") == 0)
        let next = try await server.quotedTransfer(payer, to: payee.phone, amount: 1_000)
        let authorized = try await server.authorizeTransfer(payer, next)
        #expect(authorized.status == 200, "\(authorized.text)")
    }

    @Test(
        "a retry with the same key that writes the payee's number in E.164 is the same request",
        arguments: TestEngines.all)
    func retryWithNumberRewritten(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser(balance: 100_000)
            let payee = try await server.signup()
            let key = UUID().uuidString
            let first = try await server.createTransfer(payer, to: payee.phone, key: key)
            #expect(first.status == 201, "\(first.text)")
            let international = "+234" + payee.phone.dropFirst()
            let retry = try await server.createTransfer(payer, to: international, key: key)
            #expect(retry.status == 200, "\(retry.text)")
            #expect(retry.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try retry.decode(TransferDocument.self).id == first.decode(TransferDocument.self).id)
            let other = try await server.createTransfer(payer, to: international, amount: 20_000, key: key)
            #expect(other.status == 422 && other.errorCode == "idempotency_key_reused", "\(other.text)")
        }
    }

    @Test("bad requests are 4xx with a code and write nothing", arguments: TestEngines.all)
    func badInput(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let payer = try await server.fundedUser()
            let payee = try await server.signup()
            let noDevice = try await server.signup()
            let before = try await LedgerAudit.snapshot(server.database)
            let cases: [(Int64, String, String, String?, Int, String)] = [
                (0, payee.phone, "NGN", nil, 400, "invalid_amount"),
                (-5, payee.phone, "NGN", nil, 400, "invalid_amount"),
                (Int64.max, payee.phone, "NGN", nil, 400, "invalid_amount"),
                (1_000, "not-a-phone", "NGN", nil, 400, "invalid_phone"),
                (1_000, payee.phone, "EUR", nil, 422, "unsupported_currency"),
                (1_000, payee.phone, "NGN", String(repeating: "x", count: 141), 400, "invalid_note"),
                (1_000, payee.phone, "NGN", "line\u{7}bell", 400, "invalid_value"),
                (1_000, payer.phone, "NGN", nil, 422, "self_transfer"),
            ]
            for (amount, phone, currency, note, status, code) in cases {
                let response = try await server.createTransfer(
                    payer, to: phone, amount: amount, currency: currency, note: note)
                #expect(
                    response.status == status && response.errorCode == code,
                    "\(amount) \(phone) \(currency): \(response.status) \(response.text)")
            }
            let malformed = try await server.client.send(
                .POST, "/transfers", raw: Array(#"{"payeePhone": 5}"#.utf8), token: payer.token,
                headers: [("Idempotency-Key", "x")])
            #expect(malformed.status == 400)
            let refused = try await server.createTransfer(noDevice, to: payee.phone)
            #expect(refused.status == 422 && refused.errorCode == "no_registered_credential")
            let garbage = try await server.client.send(
                .POST, "/transfers/tr_x/authorization", raw: Array("{}".utf8), token: payer.token)
            #expect(garbage.status == 400)
            #expect(try await LedgerAudit.snapshot(server.database) == before)
        }
    }
}
