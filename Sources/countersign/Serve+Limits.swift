import ArgumentParser
import CountersignAPI
import CountersignCore
import CountersignServer

extension Serve {
    /// The PIN allowance from `--pin-max-amount` and `--pin-cumulative-amount`, over the defaults.
    func pinAllowance() throws -> PinAllowance {
        var allowance = PinAllowance.standard
        for (flag, entries) in [("--pin-max-amount", pinMaxAmounts), ("--pin-cumulative-amount", pinCumulativeAmounts)]
        {
            for entry in entries {
                let (currency, minor): (String, Int64)
                do {
                    (currency, minor) = try Currency.parseTagged(entry)
                } catch {
                    throw ValidationError("\(flag) \(entry): \(error)")
                }
                var rule = allowance.rules[currency] ?? PinAllowance.Rule(maxAmount: 0, cumulativeAmount: 0)
                if flag == "--pin-max-amount" { rule.maxAmount = minor } else { rule.cumulativeAmount = minor }
                allowance.rules[currency] = rule
            }
        }
        for (currency, rule) in allowance.rules where rule.maxAmount > rule.cumulativeAmount {
            throw ValidationError(
                "--pin-max-amount for \(currency) is above its --pin-cumulative-amount: one payment could never be made"
            )
        }
        return allowance
    }
}

extension Serve {
    /// The limits tiers: the standard ones, each `--limit-tier NAME:KIND=AMOUNT,…` replacing (or adding)
    /// a tier whole; `--default-limit-tier` and `--limit-raise-delay` over the defaults.
    func limitTiers() throws -> LimitTiers {
        var tiers = LimitTiers.standard
        for entry in limitTierEntries {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 32,
                parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                throw ValidationError("--limit-tier \(entry): give NAME:KIND=AMOUNT,… e.g. tier1:daily=50000NGN")
            }
            var limits: [String: [SpendingLimitKind: Int64]] = [:]
            for item in parts[1].split(separator: ",") {
                let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, let kind = SpendingLimitKind(rawValue: pair[0]) else {
                    let kinds = SpendingLimitKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ValidationError("--limit-tier \(entry): \(item) must be KIND=AMOUNT, KIND one of \(kinds)")
                }
                do {
                    let (currency, minor) = try Currency.parseTagged(pair[1])
                    limits[currency, default: [:]][kind] = minor
                } catch {
                    throw ValidationError("--limit-tier \(entry): \(error)")
                }
            }
            tiers.tiers[parts[0]] = limits
        }
        if let defaultLimitTier {
            guard tiers.tiers[defaultLimitTier] != nil else {
                throw ValidationError(
                    "--default-limit-tier \(defaultLimitTier): no such tier (have \(tiers.tiers.keys.sorted().joined(separator: ", ")))"
                )
            }
            tiers.defaultTier = defaultLimitTier
        }
        if let hours = try Self.bounded(limitRaiseDelay, "--limit-raise-delay", 0...720, "hours: 30 days") {
            tiers.raiseDelaySeconds = Int64(hours) * 3600
        }
        return tiers
    }
}
