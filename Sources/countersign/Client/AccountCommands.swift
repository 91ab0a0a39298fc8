import ArgumentParser
import CountersignAPI
import CountersignClient

/// `countersign pin reset --phone P --new-pin PIN`: a forgotten PIN, with a code sent to the number.
/// The new PIN signs in at once; PIN payments wait out the new-device cooling-off (a code alone
/// proves the number, not the person). Every other session of the account ends.
struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "The account PIN (client).", subcommands: [Reset.self])

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new PIN with a code sent to your number; every other session ends.")

        @OptionGroup var client: ClientOptions
        @OptionGroup var codes: PhoneCodeOptions
        @Option(help: "The account's phone number.") var phone: String
        @Option(name: .customLong("new-pin"), help: "The new PIN, 4 to 6 digits, not one of the commonest.")
        var newPin: String

        func run() async throws {
            let profile = client.clientProfile()
            let api = client.apiClient()
            let code = try await codes.obtain(api: api, phone: phone, purpose: .recover)
            let session = try await SessionStart.call {
                try await api.resetPin(
                    PinResetRequest(verificationId: code.verificationId, code: code.code, newPin: newPin))
            }
            try profile.save(.init(server: client.serverURL(), phone: phone, sessionToken: session.sessionToken))
            try profile.rememberDevice(phone: phone, token: session.deviceToken)
            let security = try await api.accountSecurity()
            print("PIN reset for \(phone); every other session ended, and this one is saved.")
            if let until = security.pinCoolingOffUntil {
                print(
                    "PIN payments and PIN step-ups wait until \(Formatting.time(until)): a code alone proved the number, not you."
                )
            }
        }
    }
}

/// `countersign account show|devices|activity|phone`: the signed-in account's security.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Your account's security (client).",
        subcommands: [Show.self, Devices.self, Activity.self, ChangePhone.self])

    /// The number, its proof, locks and cooling-offs.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Number, locks and cooling-offs.")
        @OptionGroup var client: ClientOptions

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            let security = try await call { try await api.accountSecurity() }
            print("Number        \(security.phone) (\(security.phoneVerified ? "proven by a code" : "not proven yet"))")
            if let until = security.pinLockedUntil { print("PIN locked    until \(Formatting.time(until))") }
            if security.pinResetRequired { print("PIN blocked   reset it with a code: countersign pin reset") }
            if let until = security.pinCoolingOffUntil { print("PIN payments  wait until \(Formatting.time(until))") }
            if let until = security.deviceCoolingOffUntil {
                print(
                    "New device    until \(Formatting.time(until)) it pays at most \(Formatting.money(security.newDeviceMaxAmount, security.currency)) at once"
                )
            }
        }
    }

    /// The remembered devices.
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices", abstract: "The devices that sign in with the PIN alone; --forget ID forgets one.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Forget this device (its sessions end; it needs a code to sign in again).") var forget: String?

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            if let forget {
                try await call { try await api.forgetDevice(id: forget) }
                print("Forgot device \(forget); its sessions ended.")
                return
            }
            for device in try await call({ try await api.rememberedDevices() }).devices {
                print(
                    "\(device.id)  \(device.label)  last used \(Formatting.time(device.lastUsedAt))\(device.current ? "  (this one)" : "")"
                )
            }
        }
    }

    /// The latest security events.
    struct Activity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activity", abstract: "New devices, keys bound, PIN resets, number changes.")
        @OptionGroup var client: ClientOptions

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            for event in try await call({ try await api.accountActivity() }).events {
                print("\(Formatting.time(event.at))  \(event.detail)")
            }
        }
    }

    /// Moves the account to another number: a code to the new number, and the PIN with a code to
    /// the current one.
    struct ChangePhone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "phone", abstract: "Move the account to another number (codes to both numbers, and the PIN).")
        @OptionGroup var client: ClientOptions
        @OptionGroup var codes: PhoneCodeOptions
        @Option(help: "The new number.") var to: String
        @Option(help: "The account PIN.") var pin: String

        func run() async throws {
            let (profile, session, api) = try client.loggedIn()
            guard codes.code == nil, codes.verification == nil else {
                throw CommandFailure("this asks for two codes: type each when asked, or use --code-from-simulator")
            }
            print("First, a code to your current number, with your PIN:")
            let current = try await codes.obtain(api: api, phone: session.phone, purpose: .changePhone)
            print("Then a code to the new number:")
            let new = try await codes.obtain(api: api, phone: to, purpose: .changePhone)
            let security = try await call {
                try await api.changePhone(
                    ChangePhoneRequest(
                        verificationId: new.verificationId, code: new.code,
                        stepUp: StepUpProof(pin: pin, verificationId: current.verificationId, code: current.code)))
            }
            try profile.save(.init(server: session.server, phone: to, sessionToken: session.sessionToken))
            print("The account is now \(security.phone); \(session.phone) was told and no longer reaches it.")
        }
    }

    /// A refused call as a one-line failure.
    static func call<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw CommandFailure(Formatting.error(error)) }
    }
}

extension AsyncParsableCommand {
    fileprivate func call<T>(_ body: () async throws -> T) async throws -> T {
        try await AccountCommand.call(body)
    }
}
