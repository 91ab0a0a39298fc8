import ArgumentParser
import CountersignAPI
import CountersignClient
import CountersignCore
import WebAuthn

extension SpendingLimitKind: ExpressibleByArgument {}

/// `countersign limits` and `countersign limits set --kind daily --amount 500`: the spending limits
/// of the signed-in account; lower one at once, or raise one with this terminal's key (it applies
/// after the server's delay).
struct LimitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits", abstract: "Your spending limits (client).", subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self)

    /// The limits per currency: limit, used, remaining, a raise pending.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Your limits, used and remaining.")
        @OptionGroup var client: ClientOptions

        func run() async throws {
            let (_, _, api) = try client.loggedIn()
            LimitsCommand.print(try await LimitsCommand.call { try await api.limits() })
        }
    }

    /// Changes one limit.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Lower a limit (at once) or raise it up to your tier's (with this terminal's key, after a delay)."
        )
        @OptionGroup var client: ClientOptions
        @Option(help: "per_payment, daily, rolling_30_days or max_balance.") var kind: SpendingLimitKind
        @Option(help: "The new limit in major units, e.g. 20000 or 20000.50.") var amount: AmountArgument
        @Option(help: "NGN (default) or EUR.") var currency = "NGN"
        @Option(
            name: .customLong("local-pin"), help: "This terminal's local PIN, to raise with its key (asked if needed).")
        var localPIN: String?

        func run() async throws {
            let (profile, _, api) = try client.loggedIn()
            let minor = try amount.minor(in: currency, within: 0...Currency.largestAmount)
            var request = SetLimitRequest(currency: currency, kind: kind, amount: minor)
            let now = try await LimitsCommand.call { try await api.limits() }
            let current = now.currencies.first { $0.currency == currency }?.limits.first { $0.kind == kind }?.limit
            if let current, minor > current {
                guard profile.keyStore.exists() else {
                    throw CommandFailure(
                        "raising a limit needs your passkey: register this terminal's key with `countersign device register`"
                    )
                }
                try TerminalInput.require(localPIN, flag: "--local-pin", question: "Local PIN")
                guard let pin = localPIN ?? TerminalInput.secret("Local PIN (this terminal's key)") else {
                    throw CommandFailure("no local PIN given: nothing was changed")
                }
                let options = try await LimitsCommand.call { try await api.stepUpOptions() }
                guard let challenge = Base64URL.decode(options.challenge) else {
                    throw CommandFailure("the server sent a challenge that is not base64url")
                }
                let device = try profile.keyStore.load(pin: pin)
                request.stepUp = device.assertionResponse(challenge: challenge, userVerified: true)
                try? profile.keyStore.recordSignCount(device.signCount)
            }
            let after = try await LimitsCommand.call { try await api.setLimit(request) }
            LimitsCommand.print(after)
        }
    }

    static func print(_ limits: LimitsResponse) {
        Swift.print("Tier \(limits.tier)")
        for currency in limits.currencies {
            Swift.print("── \(currency.currency) ──")
            for limit in currency.limits {
                let money = { (minor: Int64?) in minor.map { Formatting.money($0, currency.currency) } ?? "no limit" }
                var line =
                    "  \(limit.kind.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \(money(limit.limit))"
                if limit.kind != .perPayment, limit.limit != nil {
                    line += "  used \(money(limit.used))  remaining \(money(limit.remaining))"
                }
                if let pending = limit.pending {
                    line += "  (raise to \(money(pending.amount)) from \(Formatting.time(pending.effectiveAt)))"
                }
                Swift.print(line)
            }
        }
    }

    /// A refused call as a one-line failure.
    static func call<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw CommandFailure(Formatting.error(error)) }
    }
}
