import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// The operator console's work on accounts: search, a user's detail, and the actions (unlock,
/// revoke a key, fund), each behind the operator's PIN and recorded.
@Suite("Operator console")
struct OperatorConsoleTests {
    /// An operator (PIN 2468) on `server`.
    static func makeOperator(_ server: LiveServer) async throws -> TestUser {
        let admin = try await server.signup(pin: "3816", name: "Operator")
        _ = try await server.services.operators.setOperator(phone: admin.phone, true)
        return admin
    }

    static func detail(_ server: LiveServer, _ admin: TestUser, _ userId: String) async throws -> OperatorUserDetail {
        try await server.client.get("/operator/users/\(userId)", token: admin.token).decode(OperatorUserDetail.self)
    }

    static func actions(_ server: LiveServer, _ admin: TestUser) async throws -> [OperatorActionEntry] {
        try await server.client.get("/operator/actions", token: admin.token).decode(OperatorActionList.self).actions
    }

    @Test(
        "search finds users by the start of their number, at most 20, and refuses short or malformed prefixes",
        arguments: TestEngines.all)
    func search(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            var made: [TestUser] = []
            for _ in 0..<22 { made.append(try await server.signup()) }
            let target = try await Self.detail(server, admin, made[5].userId)
            #expect(target.phone.hasPrefix("+234"), "\(target.phone)")

            let one = try await server.client.get(
                "/operator/users?phone=\(Self.encoded(target.phone))", token: admin.token
            )
            .decode(OperatorUserList.self)
            #expect(one.users.map(\.userId) == [made[5].userId])
            #expect(one.users.first?.locked == false && one.users.first?.isOperator == false)
            // The number as the user forms take it: national, grouped, read in the server's region.
            let national = "0" + target.phone.dropFirst(4).prefix(3) + " " + target.phone.dropFirst(7)
            let byNational = try await server.client.get(
                "/operator/users?phone=\(Self.encoded(national))", token: admin.token
            )
            .decode(OperatorUserList.self)
            #expect(byNational.users.map(\.userId) == [made[5].userId], "\(national)")

            // Every test user shares this start: the answer stops at 20, ordered by number.
            let many = try await server.client.get("/operator/users?phone=%2B23480300", token: admin.token).decode(
                OperatorUserList.self)
            #expect(many.users.count == 20)
            #expect(many.users.map(\.phone) == many.users.map(\.phone).sorted())

            let none = try await server.client.get("/operator/users?phone=%2B99999999", token: admin.token).decode(
                OperatorUserList.self)
            #expect(none.users.isEmpty)

            for bad in [
                "", "?phone=", "?phone=%2B23", "?phone=%2B2348031", "?phone=0803", "?phone=08031-", "?phone=%2B234a",
                "?phone=00234803", "?phone=0%200803123", "?phone=080312345678",
                "?phone=%2B%25",
                "?phone=%2B1234567890123456", "?phone=%2B234_",
            ] {
                let refused = try await server.client.get("/operator/users\(bad)", token: admin.token)
                #expect(refused.status == 400 && refused.errorCode == "invalid_phone", "\(bad): \(refused.text)")
            }
            // Reading needs no PIN, but an operator: a user is refused.
            let refused = try await server.client.get("/operator/users?phone=%2B23480300", token: made[0].token)
            #expect(refused.status == 403 && refused.errorCode == "not_operator")
            // Every search is an operator action on record, with what was asked and how many came back.
            let searches = try await server.database.read { sql in
                try await sql.query(
                    "SELECT detail FROM operator_actions WHERE operator_id = $1 AND action = 'search_users'",
                    [.text(admin.userId)])
            }
            #expect(searches.count == 4, "the four searches that answered")
            #expect(try searches.contains { try $0.string("detail") == "searched +23480300: 20 found" })
            #expect(try searches.contains { try $0.string("detail") == "searched \(target.phone): 1 found" })
            let unknown = try await server.client.get("/operator/users/usr_nobody", token: admin.token)
            #expect(unknown.status == 404 && unknown.errorCode == "unknown_user")
        }
    }

    @Test("searches are limited per operator: a walk over number prefixes meets 429", arguments: TestEngines.all)
    func searchLimited(engine: DatabaseEngine) async throws {
        try await LiveServer.run(
            engine,
            configure: {
                $0.rateLimits = RateLimits()
                $0.rateLimits.limits[.operatorSearch] = .init(count: 3, seconds: 600)
            }
        ) { server in
            let admin = try await Self.makeOperator(server)
            for digit in 0..<3 {
                let answer = try await server.client.get("/operator/users?phone=%2B2348030\(digit)", token: admin.token)
                #expect(answer.status == 200, "\(answer.text)")
            }
            let limited = try await server.client.get("/operator/users?phone=%2B23480303", token: admin.token)
            #expect(limited.status == 429 && limited.errorCode == "rate_limited", "\(limited.text)")
            #expect(limited.headers.first(name: "Retry-After") != nil)
            // Another operator has a count of their own.
            let other = try await Self.makeOperator(server)
            #expect(try await server.client.get("/operator/users?phone=%2B23480303", token: other.token).status == 200)
        }
    }

    @Test(
        "a user's detail shows the wallet, cashback, locks, live keys and latest transactions",
        arguments: TestEngines.all)
    func detail(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            let user = try await server.fundedUser(balance: 50_000)
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
            let detail = try await Self.detail(server, admin, user.userId)
            let wallet = try await server.wallet(user)
            #expect(detail.balance == wallet.balance && detail.cashback == wallet.cashback)
            #expect(detail.currency == "NGN" && !detail.isOperator)
            // The number's proof and the account's security events, for support.
            #expect(detail.phoneVerified)
            #expect(detail.events.map(\.kind).contains(.signedUp), "\(detail.events)")
            #expect(detail.events.map(\.kind).contains(.keyBound), "\(detail.events)")
            #expect(
                detail.keys.count == 1 && detail.keys.first?.id == user.device.map { Base64URL.encode($0.credentialId) }
            )
            #expect(detail.transactions.map(\.type) == ["topup", "funding"], "\(detail.transactions)")
            #expect(!detail.lock.locked && detail.lock.failedPaymentAuths == 0 && detail.lock.paymentLockedUntil == nil)
            // Reading records nothing.
            #expect(try await Self.actions(server, admin).map(\.action) == ["grant_operator"])
        }
    }

    @Test(
        "unlock needs the operator's PIN: a stolen session changes nothing, a right PIN clears the locks and is recorded",
        arguments: TestEngines.all)
    func unlock(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            let user = try await server.fundedUser(balance: 10_000)
            for _ in 0..<5 { _ = try await server.topUp(user, pin: "9999") }
            #expect(try await server.topUp(user, pin: user.pin).status == 423)
            let locked = try await Self.detail(server, admin, user.userId)
            #expect(locked.lock.locked && locked.lock.pinLockedUntil != nil, "\(locked.lock)")

            let path = "/operator/users/\(user.userId)/unlock"
            // No PIN, a malformed one, a wrong one: refused, nothing recorded, still locked.
            let noPin = try await server.client.post(path, [String: String](), token: admin.token)
            #expect(noPin.status == 400 && noPin.errorCode == "missing_field", "\(noPin.text)")
            let malformed = try await server.client.post(path, OperatorPinRequest(pin: "12a4"), token: admin.token)
            #expect(malformed.status == 400 && malformed.errorCode == "invalid_pin")
            let wrong = try await server.client.post(path, OperatorPinRequest(pin: "5092"), token: admin.token)
            #expect(wrong.status == 401 && wrong.errorCode == "step_up_failed", "\(wrong.text)")
            #expect(try await Self.detail(server, admin, user.userId).lock.locked)
            // Not the operator's own account, and not for users who are not operators.
            let own = try await server.client.post(
                "/operator/users/\(admin.userId)/unlock", OperatorPinRequest(pin: "3816"), token: admin.token)
            #expect(own.status == 403 && own.errorCode == "own_account")
            let byUser = try await server.client.post(path, OperatorPinRequest(pin: user.pin), token: user.token)
            #expect(byUser.status == 403 && byUser.errorCode == "not_operator")
            #expect(try await Self.actions(server, admin).map(\.action) == ["grant_operator"])

            let unlocked = try await server.client.post(path, OperatorPinRequest(pin: "3816"), token: admin.token)
                .decode(OperatorUserDetail.self)
            #expect(
                !unlocked.lock.locked && unlocked.lock.failedPinAttempts == 0 && unlocked.lock.pinLockedUntil == nil)
            #expect(try await server.topUp(user, pin: user.pin).status == 200)
            let logged = try await Self.actions(server, admin)
            #expect(logged.first?.action == "unlock_account" && logged.first?.targetUserId == user.userId)
            #expect(logged.first?.operatorId == admin.userId && logged.first?.via == "console")
            #expect(logged.first?.detail.contains("was locked") == true, "\(logged.first?.detail ?? "")")
            #expect(logged.allSatisfy { !$0.detail.contains("3816") && !$0.detail.contains(user.pin) })
            let unknown = try await server.client.post(
                "/operator/users/usr_nobody/unlock", OperatorPinRequest(pin: "3816"), token: admin.token)
            #expect(unknown.status == 404 && unknown.errorCode == "unknown_user")
        }
    }

    @Test(
        "wrong operator PINs lock the operator's PIN: then even the right one is refused",
        arguments: TestEngines.all)
    func operatorPinLocks(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            let user = try await server.signup()
            let path = "/operator/users/\(user.userId)/unlock"
            var statuses: [Int] = []
            for _ in 0..<5 {
                statuses.append(
                    try await server.client.post(path, OperatorPinRequest(pin: "0000"), token: admin.token).status)
            }
            #expect(statuses == [401, 401, 401, 401, 423], "\(statuses)")
            let right = try await server.client.post(path, OperatorPinRequest(pin: "3816"), token: admin.token)
            #expect(
                right.status == 423 && right.errorCode == "pin_locked"
                    && right.headers.first(name: "Retry-After") != nil)
            #expect(try await Self.actions(server, admin).map(\.action) == ["grant_operator"])
        }
    }

    @Test(
        "revoking a key needs the PIN, leaves the user without it (biometric payments refused) and is recorded",
        arguments: TestEngines.all)
    func revokeKey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            let user = try await server.fundedUser(balance: 10_000)
            let key = Base64URL.encode(try #require(user.device?.credentialId))
            let other = try await server.fundedUser(balance: 10_000)
            let otherKey = Base64URL.encode(try #require(other.device?.credentialId))

            let wrong = try await server.client.post(
                "/operator/users/\(user.userId)/keys/\(key)/revoke", OperatorPinRequest(pin: "7351"), token: admin.token
            )
            #expect(wrong.status == 401 && wrong.errorCode == "step_up_failed")
            // Another user's key under this user's id is not found, and stays live.
            let mismatched = try await server.client.post(
                "/operator/users/\(user.userId)/keys/\(otherKey)/revoke", OperatorPinRequest(pin: "3816"),
                token: admin.token)
            #expect(mismatched.status == 404 && mismatched.errorCode == "unknown_credential", "\(mismatched.text)")
            #expect(try await Self.detail(server, admin, other.userId).keys.count == 1)

            let after = try await server.client.post(
                "/operator/users/\(user.userId)/keys/\(key)/revoke", OperatorPinRequest(pin: "3816"), token: admin.token
            ).decode(OperatorUserDetail.self)
            #expect(after.keys.isEmpty)
            let options = try await server.authOptions(user, amount: 1_000)
            #expect(options.status == 422 && options.errorCode == "no_registered_credential", "\(options.text)")
            let again = try await server.client.post(
                "/operator/users/\(user.userId)/keys/\(key)/revoke", OperatorPinRequest(pin: "3816"), token: admin.token
            )
            #expect(again.status == 404 && again.errorCode == "unknown_credential")
            let logged = try await Self.actions(server, admin)
            #expect(logged.map(\.action) == ["revoke_key", "grant_operator"])
            #expect(logged.first?.detail.contains(key) == true && logged.first?.targetUserId == user.userId)
        }
    }

    @Test(
        "funding posts the wallet-fund entry once however many copies of a key arrive, and refuses bad amounts",
        arguments: TestEngines.all)
    func fund(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let admin = try await Self.makeOperator(server)
            let user = try await server.signup()
            let path = "/operator/users/\(user.userId)/fund"
            let body = OperatorFundRequest(pin: "3816", amount: 12_345)

            let noKey = try await server.client.post(path, body, token: admin.token)
            #expect(noKey.status == 400 && noKey.errorCode == "missing_idempotency_key")
            for amount: Int64 in [0, -1, WalletService.maximumFunding + 1, .max, .min] {
                let refused = try await server.client.post(
                    path, OperatorFundRequest(pin: "3816", amount: amount), token: admin.token,
                    headers: [("Idempotency-Key", "bad-\(amount)")])
                #expect(refused.status == 400 && refused.errorCode == "amount_out_of_range", "\(amount)")
            }
            let overflow = try await server.client.send(
                .POST, path, raw: Array(#"{"pin":"3816","amount":9223372036854775808}"#.utf8), token: admin.token,
                headers: [("Idempotency-Key", "overflow")])
            #expect(overflow.status == 400, "\(overflow.text)")

            // 30 copies of one request at once: one funding. Copies that came while as many PIN
            // checks as the lock allows were running are 429 (nothing judged, nothing written); the
            // rest name the funding, and so does each 429 tried again.
            var answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        try await server.client.post(
                            path, body, token: admin.token, headers: [("Idempotency-Key", "fund-1")])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 201 }.count == 1, "\(answers.map(\.status))")
            #expect(
                answers.allSatisfy { [200, 201].contains($0.status) || $0.errorCode == "pin_checks_busy" },
                "\(answers.map(\.text))")
            #expect(try await server.wallet(user).balance == 12_345)
            for (index, answer) in answers.enumerated() where answer.status == 429 {
                // With a wrong PIN even: a used key answers before any PIN is judged.
                answers[index] = try await server.client.post(
                    path, OperatorFundRequest(pin: "0000", amount: 12_345), token: admin.token,
                    headers: [("Idempotency-Key", "fund-1")])
            }
            #expect(answers.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 29)
            let fundings = try answers.map { try $0.decode(OperatorFunding.self) }
            #expect(Set(fundings.map(\.transactionId)).count == 1 && fundings.allSatisfy { $0.amount == 12_345 })
            #expect(try await server.wallet(user).balance == 12_345)

            // The same key for another amount or user is a reuse; a new key is a second funding.
            let reused = try await server.client.post(
                path, OperatorFundRequest(pin: "3816", amount: 1), token: admin.token,
                headers: [("Idempotency-Key", "fund-1")])
            #expect(reused.status == 422 && reused.errorCode == "idempotency_key_reused")
            let second = try await server.client.post(
                path, OperatorFundRequest(pin: "3816", amount: 655), token: admin.token,
                headers: [("Idempotency-Key", "fund-2")]
            ).decode(OperatorFunding.self)
            #expect(second.balance == 13_000)
            // Wrong PIN and own account move nothing.
            let wrong = try await server.client.post(
                path, OperatorFundRequest(pin: "7351", amount: 500), token: admin.token,
                headers: [("Idempotency-Key", "fund-3")])
            #expect(wrong.status == 401)
            let own = try await server.client.post(
                "/operator/users/\(admin.userId)/fund", OperatorFundRequest(pin: "3816", amount: 500),
                token: admin.token,
                headers: [("Idempotency-Key", "fund-4")])
            #expect(own.status == 403 && own.errorCode == "own_account")
            #expect(try await server.wallet(user).balance == 13_000)
            #expect(try await server.wallet(admin).balance == 0)

            // The same entry as `wallet fund`: a completed funding, authorized by an operator.
            let detail = try await Self.detail(server, admin, user.userId)
            #expect(detail.transactions.map(\.type) == ["funding", "funding"])
            #expect(detail.transactions.allSatisfy { $0.authorizedBy == "operator" && $0.status == "completed" })
            let logged = try await Self.actions(server, admin)
            #expect(logged.map(\.action) == ["fund_wallet", "fund_wallet", "grant_operator"], "\(logged)")
            #expect(logged.first?.detail.contains(second.transactionId) == true)
        }
    }

    @Test("the audit from the console is throttled: five a minute", arguments: TestEngines.all)
    func auditThrottled(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine, configure: { $0.rateLimits = RateLimits() }) { server in
            let admin = try await Self.makeOperator(server)
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(try await server.client.post("/operator/audit", token: admin.token).status)
            }
            #expect(statuses == [200, 200, 200, 200, 200, 429], "\(statuses)")
            #expect(try await LedgerAudit.count("audit_runs", server.database) == 5)
            server.clock.advance(seconds: 61)
            #expect(try await server.client.post("/operator/audit", token: admin.token).status == 200)
        }
    }

    @Test("the profile says who is an operator", arguments: TestEngines.all)
    func profile(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            let admin = try await Self.makeOperator(server)
            #expect(
                try await server.client.get("/user/profile", token: admin.token).decode(ProfileResponse.self).isOperator
            )
            #expect(
                try await !server.client.get("/user/profile", token: user.token).decode(ProfileResponse.self).isOperator
            )
        }
    }

    static func encoded(_ phone: String) -> String {
        phone.replacingOccurrences(of: "+", with: "%2B")
    }
}
