import CountersignAPI
import CountersignClient
import CountersignHarness
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// A PIN alone binds no device: a new key needs an existing key's signature, or the PIN and a code
/// sent to the number, and a key bound that way pays little until its cooling-off ends. Recovery
/// and a change of number take a code too.
@Suite("Binding devices, recovery and a change of number")
struct DeviceBindingTests {
    /// A session on a device the account does not know, opened with the PIN and a login code.
    static func newDeviceSession(_ server: LiveServer, _ user: TestUser) async throws -> SessionResponse {
        let code = try await server.code(user.phone, .login)
        let login = try await server.client.post(
            "/auth/login",
            LoginRequest(phone: user.phone, pin: user.pin, verificationId: code.verificationId, code: code.code))
        try #require(login.status == 200, "\(login.text)")
        return try login.decode(SessionResponse.self)
    }

    @Test(
        "the PIN alone binds no key; the PIN and a code bind one that pays little at first", arguments: TestEngines.all)
    func pinAndCode(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 2_000_000)
            // Past the ten minutes after signup, from a stolen session with a shoulder-surfed PIN:
            server.clock.advance(seconds: 11 * 60)
            let pinOnly = try await server.client.post(
                "/biometric/register/options", RegistrationOptionsRequest(pin: user.pin), token: user.token)
            #expect(pinOnly.status == 401 && pinOnly.errorCode == "phone_code_required", "\(pinOnly.text)")
            #expect(try await PinLockoutTests.pinAttempts(server, user) == 0, "refused before the PIN is judged")

            let code = try await server.code(user.phone, .bindDevice)
            let sdk = server.client.sdk(token: user.token)
            let device = try await sdk.registerDevice(
                stepUp: RegistrationOptionsRequest(pin: user.pin, verificationId: code.verificationId, code: code.code),
                origin: LiveServer.origin)
            let keys = try await sdk.credentials().credentials
            let newKey = try #require(keys.first { $0.id == Base64URL.encode(device.credentialId) })
            #expect(newKey.coolingOffUntil != nil)
            // The number is told.
            let sms = try await server.messages(to: user.phone, containing: "new device key")
            #expect(sms.contains { $0.body.contains("new device key") }, "\(sms.map(\.body))")
            // No further key by the PIN and a code while it is new.
            let second = try await server.code(user.phone, .bindDevice)
            let refused = try await server.client.post(
                "/biometric/register/options",
                RegistrationOptionsRequest(pin: user.pin, verificationId: second.verificationId, code: second.code),
                token: user.token)
            #expect(refused.status == 403 && refused.errorCode == "device_cooling_off", "\(refused.text)")
            #expect(refused.headers.first(name: "Retry-After") != nil)

            // The new key pays at most the new-device limit; the old one is not limited.
            var onNewKey = user
            onNewKey.device = device
            let limit = server.services.configuration.newDeviceMaxAmount
            let overLimit = try await server.client.post(
                "/biometric/auth/options",
                AuthenticationOptionsRequest(
                    amount: limit + 100, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: nil),
                token: user.token)
            // The old key may still pay it: only the new one is left out of the challenge.
            let offered = try overLimit.decode(AuthenticationOptionsResponse.self).allowCredentials.map(\.id)
            #expect(!offered.contains(newKey.id) && offered.count == 1, "\(offered)")
            let small = try await server.authorize(onNewKey, amount: 500)
            #expect(try await server.topUp(onNewKey, amount: 500, token: small).status == 200)
            // Signed by the new key all the same, the token (which carries the key's cooling-off)
            // pays nothing over the limit.
            let big = try await server.authorize(onNewKey, amount: limit + 100)
            let bigPaid = try await server.topUp(onNewKey, amount: limit + 100, token: big)
            #expect(bigPaid.status == 403 && bigPaid.errorCode == "new_device_limit", "\(bigPaid.text)")
            // A token from before tokens carried the cooling-off: the key is read, with the same answer.
            let intent = try await server.authOptions(onNewKey, amount: limit + 100).decode(
                AuthenticationOptionsResponse.self
            ).transaction
            let legacy = VerificationTokens(secret: LiveServer.tokenSecret).issue(
                userId: user.userId, intentDigest: Base64URL.encode(intent.digest), credentialId: newKey.id,
                userVerified: true, now: server.clock.wallClock.nowMillis(), lifetimeSeconds: 300)
            let legacyPaid = try await server.topUp(onNewKey, amount: limit + 100, token: legacy)
            #expect(legacyPaid.status == 403 && legacyPaid.errorCode == "new_device_limit", "\(legacyPaid.text)")
            #expect(try await server.wallet(user).balance == 2_000_000 - 500)

            // When it ends, the key pays like any other.
            server.clock.advance(seconds: server.services.configuration.newDeviceSeconds + 1)
            let later = try await server.authOptions(onNewKey, amount: limit + 100).decode(
                AuthenticationOptionsResponse.self)
            #expect(later.allowCredentials.map(\.id).contains(newKey.id))
        }
    }

    @Test("an open app hears of a new key at once: the account's event stream", arguments: TestEngines.all)
    func eventStream(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let stream = try await EventStreamClient.open(server.client, path: "/account/events", token: user.token)
            defer { stream.close() }
            #expect(stream.status == 200 && stream.contentType?.hasPrefix("text/event-stream") == true)
            // Someone with the PIN and a code to the number binds a key from another session.
            let elsewhere = try await Self.newDeviceSession(server, user)
            let code = try await server.code(user.phone, .bindDevice)
            _ = try await server.client.sdk(token: elsewhere.sessionToken).registerDevice(
                stepUp: RegistrationOptionsRequest(pin: user.pin, verificationId: code.verificationId, code: code.code),
                origin: LiveServer.origin)
            let heard = await stream.wait(timeout: .seconds(30)) { events in
                events.contains { $0.data.contains(#""kind":"key_bound""#) }
            }
            #expect(heard.contains { $0.data.contains(#""kind":"new_device_sign_in""#) }, "\(heard.map(\.data))")
            #expect(heard.contains { $0.data.contains(#""kind":"key_bound""#) }, "\(heard.map(\.data))")
        }
    }

    @Test(
        "a session from a new device pays at most the new-device limit until its cooling-off ends",
        arguments: TestEngines.all)
    func newDeviceSessionLimited(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser(balance: 2_000_000)
            let session = try await Self.newDeviceSession(server, user)
            let there = TestUser(
                phone: user.phone, pin: user.pin, userId: user.userId, token: session.sessionToken, device: user.device)
            let limit = server.services.configuration.newDeviceMaxAmount
            let big = try await server.topUp(there, amount: limit + 100, pin: user.pin)
            #expect(big.status == 403 && big.errorCode == "new_device_limit", "\(big.text)")
            let options = try await server.authOptions(there, amount: limit + 100)
            #expect(options.status == 403 && options.errorCode == "new_device_limit", "refused before any gesture")
            #expect(try await server.topUp(there, amount: 500, pin: user.pin).status == 200)
            // The signup device is not new: it pays as before.
            #expect(try await server.topUp(user, amount: limit + 100, pin: user.pin).status == 200)
            let security = try await server.client.get("/account/security", token: session.sessionToken).decode(
                AccountSecurityResponse.self)
            #expect(security.deviceCoolingOffUntil != nil && security.newDeviceMaxAmount == limit)
        }
    }

    @Test(
        "a forgotten PIN: a code alone resets it with a cooling-off; every other session ends",
        arguments: TestEngines.all)
    func resetByCode(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let code = try await server.code(user.phone, .recover)
            let weak = try await server.client.post(
                "/auth/pin/reset", PinResetRequest(verificationId: code.verificationId, code: code.code, newPin: "1111")
            )
            #expect(weak.status == 422 && weak.errorCode == "weak_pin")
            let reset = try await server.client.post(
                "/auth/pin/reset", PinResetRequest(verificationId: code.verificationId, code: code.code, newPin: "6051")
            )
            #expect(reset.status == 200, "\(reset.text)")
            let session = try reset.decode(SessionResponse.self)
            #expect(try await server.client.get("/user/wallet", token: user.token).status == 401, "old sessions end")
            var reborn = TestUser(
                phone: user.phone, pin: "6051", userId: user.userId, token: session.sessionToken, device: user.device,
                deviceToken: session.deviceToken)
            let byPIN = try await server.topUp(reborn, amount: 500, pin: "6051")
            #expect(byPIN.status == 403 && byPIN.errorCode == "pin_cooling_off", "\(byPIN.text)")
            // Logging in with the new PIN works; the old PIN does not.
            let old = try await server.client.post(
                "/auth/login", LoginRequest(phone: user.phone, pin: user.pin, deviceToken: session.deviceToken))
            #expect(old.status == 401)
            reborn.token = session.sessionToken
            server.clock.advance(seconds: server.services.configuration.newDeviceSeconds + 1)
            #expect(try await server.topUp(reborn, amount: 500, pin: "6051").status == 200)
        }
    }

    @Test(
        "a forgotten PIN with a code and a passkey works at once; a reset lifts a blocked PIN",
        arguments: TestEngines.all)
    func resetWithKey(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            try await server.database.transaction { sql in
                try await sql.execute("UPDATE users SET pin_blocked = 1 WHERE id = $1", [.text(user.userId)])
            }
            let options = try await server.client.post("/auth/passkey/options").decode(
                PasskeySignInOptionsResponse.self)
            var assertion = try server.assertion(try #require(user.device), challenge: options.challenge)
            assertion.response.userHandle = try await BrowserTests.userHandle(server, user)
            let code = try await server.code(user.phone, .recover)
            let reset = try await server.client.post(
                "/auth/pin/reset",
                PinResetRequest(
                    verificationId: code.verificationId, code: code.code, newPin: "6051", assertion: assertion))
            #expect(reset.status == 200, "\(reset.text)")
            let session = try reset.decode(SessionResponse.self)
            let reborn = TestUser(
                phone: user.phone, pin: "6051", userId: user.userId, token: session.sessionToken, device: user.device)
            #expect(try await server.topUp(reborn, amount: 500, pin: "6051").status == 200, "no cooling-off")
        }
    }

    @Test(
        "a change of number: a step-up with the PIN and a code to the old number, a code to the new one",
        arguments: TestEngines.all)
    func changeNumber(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let newNumber = TestPhones.next()
            let old = try await server.code(user.phone, .changePhone, token: user.token)
            let new = try await server.code(newNumber, .changePhone, token: user.token)
            let noStepUp = try await server.client.post(
                "/account/phone",
                ChangePhoneRequest(
                    verificationId: new.verificationId, code: new.code, stepUp: StepUpProof(pin: user.pin)),
                token: user.token)
            #expect(noStepUp.status == 401 && noStepUp.errorCode == "step_up_required", "\(noStepUp.text)")
            let changed = try await server.client.post(
                "/account/phone",
                ChangePhoneRequest(
                    verificationId: new.verificationId, code: new.code,
                    stepUp: StepUpProof(pin: user.pin, verificationId: old.verificationId, code: old.code)),
                token: user.token)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try changed.decode(AccountSecurityResponse.self).phone == "+234" + newNumber.dropFirst())
            // The old number is told, and money sent to it no longer arrives here.
            let told = try await server.messages(to: user.phone, containing: "moved to another number")
            #expect(told.contains { $0.body.contains("moved to another number") })
            let payer = try await server.fundedUser()
            let toOld = try await server.createTransfer(payer, to: user.phone)
            #expect(toOld.status == 422 && toOld.errorCode == "payee_not_found", "\(toOld.text)")
            let toNew = try await server.quotedTransfer(payer, to: newNumber)
            #expect(toNew.status == .authorizationRequired)
            // Someone else's number cannot be taken: no code reaches it for this account.
            let other = try await server.signup()
            let stolen = try await server.client.sdk(token: user.token).requestCode(
                phone: other.phone, purpose: .changePhone
            ).verificationId
            let refused = try await server.client.post(
                "/account/phone",
                ChangePhoneRequest(
                    verificationId: stolen, code: "000000",
                    stepUp: StepUpProof(assertion: nil)), token: user.token)
            #expect(refused.status == 401)
        }
    }
}
