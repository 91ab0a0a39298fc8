/// A step-up: proof beyond the session that the account's holder is here. Either an assertion from
/// one of the user's keys over a step-up challenge (`POST /biometric/step-up/options`), or the PIN
/// **and** a code sent to the account's number. The PIN alone is not enough: a shoulder-surfed PIN
/// must not let someone bind their own device or move the account.
public struct StepUpProof: Codable, Sendable {
    /// The account PIN (counted towards the PIN lockout).
    public var pin: String?
    /// With `pin`: a code sent to the account's number, for the purpose the step-up is for.
    public var verificationId: String?
    public var code: String?
    /// An assertion from one of the user's keys over a step-up challenge.
    public var assertion: AuthenticationResponseJSON?
    /// A step-up.
    public init(
        pin: String? = nil, verificationId: String? = nil, code: String? = nil,
        assertion: AuthenticationResponseJSON? = nil
    ) {
        self.pin = pin
        self.verificationId = verificationId
        self.code = code
        self.assertion = assertion
    }
}

/// `POST /auth/pin/reset` body (purpose `recover`): a code to the number, and an assertion from one
/// of the user's keys over a passkey sign-in challenge (`POST /auth/passkey/options`) if they have
/// one. With the assertion the new PIN works at once; with the code alone, PIN payments and PIN
/// step-ups stay refused for a cooling-off period. Either way every other session ends.
public struct PinResetRequest: Codable, Sendable {
    public var verificationId: String
    public var code: String
    /// The new 4 to 6 digit PIN; the most common ones are refused (`weak_pin`).
    public var newPin: String
    /// Optional: proves the user still holds a key, so no cooling-off is needed.
    public var assertion: AuthenticationResponseJSON?
    /// This device's token from an earlier session, if it has one.
    public var deviceToken: String?
    /// A reset request.
    public init(
        verificationId: String, code: String, newPin: String, assertion: AuthenticationResponseJSON? = nil,
        deviceToken: String? = nil
    ) {
        self.verificationId = verificationId
        self.code = code
        self.newPin = newPin
        self.assertion = assertion
        self.deviceToken = deviceToken
    }
}

/// `POST /account/phone` body: a code sent to the new number (purpose `change-phone`) and a
/// step-up (an assertion over a `change-phone` step-up challenge, or the PIN and a code sent to the
/// current number, purpose `change-phone`).
public struct ChangePhoneRequest: Codable, Sendable {
    public var verificationId: String
    public var code: String
    public var stepUp: StepUpProof
    /// A change of number.
    public init(verificationId: String, code: String, stepUp: StepUpProof) {
        self.verificationId = verificationId
        self.code = code
        self.stepUp = stepUp
    }
}

/// `GET /account/security`: what protects the account now.
public struct AccountSecurityResponse: Codable, Sendable, Equatable {
    /// The account's number, E.164.
    public var phone: String
    /// Whether the number was proven by a code. Accounts opened before numbers were proven are not,
    /// until their next login; they cannot receive transfers meanwhile.
    public var phoneVerified: Bool
    /// PIN checks are locked until then (ISO 8601) after repeated failures.
    public var pinLockedUntil: String?
    /// True after too many locks in a row: only a PIN reset (`POST /auth/pin/reset`) or an operator
    /// lifts it.
    public var pinResetRequired: Bool
    /// After a PIN reset by code alone: PIN payments and PIN step-ups are refused until then.
    public var pinCoolingOffUntil: String?
    /// A key bound with the PIN and a code is new: until then payments by it are limited to
    /// `newDeviceMaxAmount`, and no further key can be bound with the PIN and a code.
    public var deviceCoolingOffUntil: String?
    /// The most a key in its cooling-off may pay at once, in minor units of `currency`.
    public var newDeviceMaxAmount: Int64
    /// The wallet currency.
    public var currency: String
    /// A response.
    public init(
        phone: String, phoneVerified: Bool, pinLockedUntil: String?, pinResetRequired: Bool,
        pinCoolingOffUntil: String?, deviceCoolingOffUntil: String?, newDeviceMaxAmount: Int64, currency: String
    ) {
        self.phone = phone
        self.phoneVerified = phoneVerified
        self.pinLockedUntil = pinLockedUntil
        self.pinResetRequired = pinResetRequired
        self.pinCoolingOffUntil = pinCoolingOffUntil
        self.deviceCoolingOffUntil = deviceCoolingOffUntil
        self.newDeviceMaxAmount = newDeviceMaxAmount
        self.currency = currency
    }
}

/// A device that may sign in with the PIN alone: it held a session of this user before.
public struct RememberedDevice: Codable, Sendable, Equatable {
    public var id: String
    /// What it said it was when it was first seen (from its `User-Agent`).
    public var label: String
    public var createdAt: String
    public var lastUsedAt: String
    /// Whether it is the device this request comes from.
    public var current: Bool
    /// A device.
    public init(id: String, label: String, createdAt: String, lastUsedAt: String, current: Bool) {
        self.id = id
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// `GET /account/devices`.
public struct RememberedDeviceList: Codable, Sendable, Equatable {
    /// Newest use first.
    public var devices: [RememberedDevice]
    /// A list.
    public init(devices: [RememberedDevice]) { self.devices = devices }
}

/// Something that happened to an account's security, shown to its holder and to operators.
public struct AccountEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case signedUp = "signed_up"
        case phoneVerified = "phone_verified"
        case newDeviceSignIn = "new_device_sign_in"
        case keyBound = "key_bound"
        case keyRevoked = "key_revoked"
        case deviceForgotten = "device_forgotten"
        case pinReset = "pin_reset"
        case pinLocked = "pin_locked"
        case pinBlocked = "pin_blocked"
        case phoneChanged = "phone_changed"
        case phoneReleased = "phone_released"
        case unlockedByOperator = "unlocked_by_operator"
    }

    public var id: String
    public var kind: Kind
    /// One sentence for people.
    public var detail: String
    public var at: String
    /// An event.
    public init(id: String, kind: Kind, detail: String, at: String) {
        self.id = id
        self.kind = kind
        self.detail = detail
        self.at = at
    }
}

/// `GET /account/activity`.
public struct AccountActivity: Codable, Sendable, Equatable {
    /// Newest first, at most 50.
    public var events: [AccountEvent]
    /// A list.
    public init(events: [AccountEvent]) { self.events = events }
}
