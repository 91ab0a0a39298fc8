import CountersignAPI
import CountersignCore
import Foundation

/// The parsers of settings whose values have a shape of their own; each throws a `SettingProblem`
/// that follows the setting's name.
extension ServeSettings {
    static func models(_ values: [String]) throws -> Set<UUID> {
        try Set(
            values.map { text in
                guard let uuid = UUID(uuidString: text) else {
                    throw SettingProblem(
                        "must be an AAGUID in UUID form (e.g. 08987058-cadc-4b81-b6e1-30de50dcbe96), not \(text)")
                }
                return uuid
            })
    }

    /// `AMOUNT+CURRENCY` entries (`30EUR`) written into one field of each currency's PIN rule.
    static func pinAmounts(
        _ allowance: inout PinAllowance, _ entries: [String], _ field: WritableKeyPath<PinAllowance.Rule, Int64>
    ) throws {
        for entry in entries {
            let (currency, minor): (String, Int64)
            do {
                (currency, minor) = try Currency.parseTagged(entry)
            } catch {
                throw SettingProblem("\(entry): \(error)")
            }
            var rule = allowance.rules[currency] ?? PinAllowance.Rule(maxAmount: 0, cumulativeAmount: 0)
            rule[keyPath: field] = minor
            allowance.rules[currency] = rule
        }
    }

    /// `NAME:KIND=AMOUNT,…`, e.g. `tier1:daily=50000NGN,max_balance=300000NGN`.
    static func limitTier(_ entry: String) throws -> (String, [String: [SpendingLimitKind: Int64]]) {
        let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 32,
            parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw SettingProblem("\(entry): give NAME:KIND=AMOUNT,… e.g. tier1:daily=50000NGN")
        }
        var limits: [String: [SpendingLimitKind: Int64]] = [:]
        for item in parts[1].split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let kind = SpendingLimitKind(rawValue: pair[0]) else {
                let kinds = SpendingLimitKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingProblem("\(entry): \(item) must be KIND=AMOUNT, KIND one of \(kinds)")
            }
            do {
                let (currency, minor) = try Currency.parseTagged(pair[1])
                limits[currency, default: [:]][kind] = minor
            } catch {
                throw SettingProblem("\(entry): \(error)")
            }
        }
        return (parts[0], limits)
    }

    /// `HOST:PORT` (an IPv6 host in brackets), the port 1 to 65535.
    static func hostAndPort(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            throw SettingProblem("must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:9464")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 255 else {
            throw SettingProblem("needs a host, e.g. 127.0.0.1:9464")
        }
        return (host, port)
    }

    /// Reads and checks a fee schedule file, naming what is wrong.
    static func loadFeeSchedule(_ path: String) throws -> FeeSchedule {
        let schedule = try load(FeeSchedule.self, what: "fee schedule", path)
        if let problem = schedule.problem { throw SettingProblem("\(path): \(problem)") }
        return schedule
    }

    /// Reads and checks a marketplace rates file, naming what is wrong.
    static func loadMarketplaceRates(_ path: String) throws -> MarketplaceRates {
        let rates = try load(MarketplaceRates.self, what: "marketplace rates", path)
        if let problem = rates.problem { throw SettingProblem("\(path): \(problem)") }
        return rates
    }

    private static func load<T: Decodable>(_ type: T.Type, what: String, _ path: String) throws -> T {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingProblem("\(path): cannot read the \(what)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw SettingProblem("\(path): the \(what) is not valid: \(error)")
        }
    }
}
