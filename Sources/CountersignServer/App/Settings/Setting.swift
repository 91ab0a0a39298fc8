import Foundation

/// One setting of `countersign serve`, described once: its name (the flag without `--`, and the key
/// in a `--config` file), its environment variable, the values it takes, its help, and what it
/// changes in the configuration. The table of them is `ServeSettings.all`; `ServeSettings.resolve`
/// reads every source through it and `ServeSettings.help` prints it.
package struct Setting: Sendable {
    /// What values a setting takes, and so how each source writes it.
    package enum Kind: Sendable {
        /// On when given: `--name`, `NAME=1` (or `true`), `"name": true`.
        case flag
        /// One text value: `--name value`, `NAME=value`, `"name": "value"`.
        case text
        /// One of these words.
        case choice([String])
        /// A whole number within the range, in the unit: `--name 30`, `NAME=30`, `"name": 30`.
        case integer(ClosedRange<Int64>, Unit)
        /// Repeatable: `--name a --name b`, `NAME=a,b` (this separator), `"name": ["a", "b"]`.
        case list(Character)
        /// A secret: from the environment only, never a flag or a file (`ps` and config files leak).
        case secret
    }

    /// The unit of a whole-number setting, which the help and the range name; `Quantity` scales it.
    package enum Unit: String, Sendable {
        case milliseconds, seconds, minutes, hours, days
        case minorUnits = "minor units"
        /// A plain number: a port, a count.
        case number

        /// Milliseconds in one of this unit; 0 for what is not a duration.
        var milliseconds: Int64 {
            switch self {
            case .milliseconds: 1
            case .seconds: 1_000
            case .minutes: 60_000
            case .hours: 3_600_000
            case .days: 86_400_000
            case .minorUnits, .number: 0
            }
        }
    }

    /// A whole-number setting's value in its unit, checked against its range before it is scaled,
    /// so scaling cannot overflow.
    package struct Quantity: Sendable {
        package let value: Int64
        package let unit: Unit
        package var milliseconds: Int64 { value * unit.milliseconds }
        package var seconds: Int64 { value * unit.milliseconds / 1_000 }
    }

    package let name: String
    package let environment: String
    package let kind: Kind
    /// What the value is, in `--help`: `--fee-schedule <file>`.
    package let valueName: String
    package let help: String
    /// The default, in words, for `--help`; nil when the help says it or there is none.
    package let defaultText: String?
    /// Tests only: accepted from every source, left out of `--help` and the docs.
    package let hidden: Bool
    /// Writes the checked value into the configuration; throws `SettingProblem` for a value its own
    /// parser refuses.
    let apply: @Sendable (inout ServeConfiguration, Value) throws -> Void

    /// A value checked against its kind.
    enum Value: Sendable {
        case on
        case text(String)
        case quantity(Quantity)
        case list([String])
    }

    package var flag: String { "--" + name }
    package var isRepeatable: Bool { if case .list = kind { true } else { false } }
    package var isSecret: Bool { if case .secret = kind { true } else { false } }

    /// The environment variable is the one given, else `COUNTERSIGN_` and the name in capitals.
    init(
        _ name: String, _ kind: Kind, environment: String?, value valueName: String, default defaultText: String?,
        hidden: Bool, help: String, apply: @escaping @Sendable (inout ServeConfiguration, Value) throws -> Void
    ) {
        self.name = name
        self.kind = kind
        self.environment =
            environment ?? "COUNTERSIGN_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        self.valueName = valueName
        self.defaultText = defaultText
        self.hidden = hidden
        self.help = help
        self.apply = apply
    }
}

/// What is wrong with a value, in words that follow the name of the flag, variable or file key that
/// gave it: `--payee-origin` `must be an https origin`.
package struct SettingProblem: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A setting refused at start, its message naming the setting and where it came from.
package struct SettingsError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
