import CountersignAPI

extension CountersignAPIClient {
    /// `POST /auth/phone/verifications`: sends a 6-digit code to `phone` for `purpose`. The answer
    /// is the same whether or not the number has an account; send its `verificationId` with the code
    /// to the operation it unlocks.
    public func requestCode(phone: String, purpose: VerificationPurpose) async throws -> PhoneVerificationResponse {
        try await call(request(.phoneVerification, json: PhoneVerificationRequest(phone: phone, purpose: purpose)))
    }

    /// `POST /auth/pin/reset`: a new PIN from a code (and an assertion, for no cooling-off); every
    /// other session ends. Starts the new session.
    @discardableResult
    public func resetPin(_ body: PinResetRequest) async throws -> SessionResponse {
        let session: SessionResponse = try await call(request(.pinReset, json: body))
        setSessionToken(session.sessionToken)
        return session
    }

    /// `GET /account/security`: the number, whether it is proven, locks and cooling-offs.
    public func accountSecurity() async throws -> AccountSecurityResponse {
        try await call(request(.accountSecurity))
    }

    /// `POST /account/phone`: moves the account to the number a code proved, after a step-up.
    public func changePhone(_ body: ChangePhoneRequest) async throws -> AccountSecurityResponse {
        try await call(request(.changePhone, json: body))
    }

    /// `GET /account/devices`: the devices that may sign in with the PIN alone.
    public func rememberedDevices() async throws -> RememberedDeviceList {
        try await call(request(.listDevices))
    }

    /// `DELETE /account/devices/{id}`: forgets a device and ends its sessions.
    public func forgetDevice(id: String) async throws {
        _ = try await send(try request(.revokeDevice, [id]))
    }

    /// `GET /account/activity`: sign-ins from new devices, keys bound, PIN and number changes.
    public func accountActivity() async throws -> AccountActivity {
        try await call(request(.accountActivity))
    }

    /// `GET /sim/sms?phone=`: what the server's SMS simulator sent to `phone`, newest first. Only a
    /// server in test mode answers (404 with a real SMS provider): for tests, demos and development.
    public func simulatedMessages(to phone: String) async throws -> SimulatedSMSList {
        try await call(request(.simulatedSMS, query: [("phone", phone)]))
    }

    /// The newest 6-digit code the SMS simulator sent to `phone`, polling `simulatedMessages` until
    /// one newer than `after` messages arrives (messages leave through a queue), for `timeout` at most.
    public func simulatedCode(to phone: String, after count: Int = 0, timeout: Duration = .seconds(30)) async throws
        -> String
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let messages = try await simulatedMessages(to: phone).messages
            if messages.count > count, let code = Self.code(in: messages[0].body) { return code }
            guard ContinuousClock.now < deadline else {
                throw CountersignClientError.decoding("no code reached \(phone) in the SMS simulator")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first run of exactly six digits in an SMS.
    static func code(in body: String) -> String? {
        var run = ""
        for character in body {
            if character.isASCII, character.isNumber {
                run.append(character)
            } else {
                if run.count == 6 { return run }
                run = ""
            }
        }
        return run.count == 6 ? run : nil
    }
}
