import CountersignAPI
import CountersignCodec
import CountersignCore
import CountersignStore

extension AccountService {
    /// A forgotten PIN: a code sent to the number (purpose `recover`) sets a new one. With an
    /// assertion from one of the user's keys too (`assertedUserId`, checked by the caller) it works at
    /// once; with the code alone, PIN payments and PIN step-ups wait out the new-device cooling-off.
    /// Either way every other session ends and every remembered device is forgotten (a lost phone
    /// keeps nothing), and the locks and block on the PIN are lifted.
    package func resetPin(_ request: PinResetRequest, assertedUserId: String?, device: DeviceContext) async throws
        -> SessionResponse
    {
        try Self.checkNewPin(request.newPin)
        let proven = try await verifications.prove(
            verificationId: request.verificationId, code: request.code, purpose: .recover)
        guard let userId = proven.userId,
            let user = try await database.read({ sql in try await sql.users.find(id: userId) }),
            user.phone == proven.phone
        else { throw PhoneVerifications.expired }
        if let assertedUserId, assertedUserId != user.id {
            throw APIError(.passkeySignInFailed, "That passkey is not one of this account's keys.")
        }
        let pinHash = try await pins.hash(request.newPin)
        let now = clock.nowMillis()
        let cooling = assertedUserId == nil ? now + configuration.newDeviceSeconds * 1000 : 0
        let token = Base64URL.encode(SecureRandom.bytes(32))
        let deviceToken = try await database.transaction { sql in
            try await verifications.consume(proven, now: now, on: sql)
            try await sql.users.resetPin(userId: user.id, pinHash: pinHash, coolingUntil: cooling)
            _ = try await sql.sessions.revokeAll(userId: user.id, now: now)
            try await sql.knownDevices.revokeAll(userId: user.id, now: now)
            try await sql.accountEvents.record(
                userId: user.id, kind: .pinReset,
                detail: assertedUserId == nil
                    ? "PIN reset with a code; PIN payments wait until the cooling-off ends."
                    : "PIN reset with a code and a device key.", now: now)
            return try await openSession(
                userId: user.id, token: token, proof: "reset", device: device, knownDevice: nil,
                coolingUntil: cooling, now: now, on: sql)
        }
        sessionSignals.sessionsEnded(userId: user.id)
        verifications.notify(
            user.phone,
            "Your Countersign PIN was reset and every other session ended. If this was not you, contact us.",
            kind: "pin_reset")
        return SessionResponse(userId: user.id, sessionToken: token, deviceToken: deviceToken)
    }

    /// Moves the account to another number: a code to the new number (purpose `change-phone`) and a
    /// step-up, either an assertion (checked by the caller: `steppedUpByKey`) or the PIN and a code
    /// to the current number. The old number is told; transfers to it no longer reach this account.
    package func changePhone(userId: String, _ request: ChangePhoneRequest, steppedUpByKey: Bool) async throws
        -> AccountSecurityResponse
    {
        guard let user = try await database.read({ sql in try await sql.users.find(id: userId) }) else {
            throw APIError.unauthenticated
        }
        var stepUpCode: ProvenCode?
        if !steppedUpByKey {
            guard let pin = request.stepUp.pin, let id = request.stepUp.verificationId, let code = request.stepUp.code
            else {
                throw APIError(
                    .stepUpRequired,
                    "Changing your number needs a signature from one of your keys, or your PIN and a code sent to your current number."
                )
            }
            guard PinHasher.isWellFormed(pin) else { throw APIError(.invalidPin, "pin must be 4 to 6 digits.") }
            let proven = try await verifications.prove(verificationId: id, code: code, purpose: .changePhone)
            guard proven.phone == user.phone else { throw PhoneVerifications.expired }
            try Self.ensurePinUsable(user, now: clock.nowMillis())
            try await pinGuard.confirm(pin, user: user)
            stepUpCode = proven
        }
        let proven = try await verifications.prove(
            verificationId: request.verificationId, code: request.code, purpose: .changePhone)
        guard proven.phone != user.phone else {
            throw APIError(.samePhone, "That is the number the account has already.")
        }
        guard proven.userId == user.id else { throw PhoneVerifications.expired }
        let now = clock.nowMillis()
        let oldNumberCode = stepUpCode
        try await database.transaction { sql in
            if let oldNumberCode { try await verifications.consume(oldNumberCode, now: now, on: sql) }
            try await verifications.consume(proven, now: now, on: sql)
            _ = try await sql.users.releaseUnverified(phone: proven.phone, now: now)
            guard try await sql.users.changePhone(userId: user.id, to: proven.phone, now: now) else {
                throw PhoneVerifications.expired
            }
            try await sql.accountEvents.record(
                userId: user.id, kind: .phoneChanged,
                detail: "Number changed from \(PhoneNumber(user.phone)?.masked() ?? "the old number").", now: now)
        }
        verifications.notify(
            user.phone,
            "Your Countersign account moved to another number. Money sent to this number no longer reaches it. If this was not you, contact us.",
            kind: "phone_changed")
        return try await security(userId: userId, session: nil)
    }

    /// 403 `pin_cooling_off` while a PIN reset by code alone is recent.
    static func ensurePinUsable(_ user: User, now: Int64) throws(APIError) {
        guard user.pinCoolingUntil <= now else {
            throw APIError(
                .pinCoolingOff,
                "Your PIN was reset with a code only: PIN payments and PIN step-ups wait until the cooling-off ends.",
                retryAfter: Int((user.pinCoolingUntil - now + 999) / 1000))
        }
    }
}
