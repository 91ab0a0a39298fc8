extension Setting {
    /// Off unless given; `apply` runs when it is on.
    static func flag(
        _ name: String, environment: String? = nil, hidden: Bool = false, help: String,
        _ apply: @escaping @Sendable (inout ServeConfiguration) -> Void
    ) -> Setting {
        Setting(name, .flag, environment: environment, value: "", default: nil, hidden: hidden, help: help) {
            configuration, _ in apply(&configuration)
        }
    }

    /// One text value, which `apply` may refuse with a `SettingProblem`.
    static func text(
        _ name: String, environment: String? = nil, value: String = "value", default defaultText: String? = nil,
        help: String, _ apply: @escaping @Sendable (inout ServeConfiguration, String) throws -> Void
    ) -> Setting {
        Setting(name, .text, environment: environment, value: value, default: defaultText, hidden: false, help: help) {
            configuration, value in
            if case .text(let text) = value { try apply(&configuration, text) }
        }
    }

    /// One of `words`.
    static func choice(
        _ name: String, _ words: [String], environment: String? = nil, default defaultText: String, help: String,
        _ apply: @escaping @Sendable (inout ServeConfiguration, String) -> Void
    ) -> Setting {
        Setting(
            name, .choice(words), environment: environment, value: words.joined(separator: "|"), default: defaultText,
            hidden: false, help: help
        ) { configuration, value in
            if case .text(let word) = value { apply(&configuration, word) }
        }
    }

    /// A whole number in `range`, counted in `unit`.
    static func integer(
        _ name: String, _ range: ClosedRange<Int64>, _ unit: Unit, environment: String? = nil, value: String? = nil,
        default defaultText: String, hidden: Bool = false, help: String,
        _ apply: @escaping @Sendable (inout ServeConfiguration, Quantity) -> Void
    ) -> Setting {
        Setting(
            name, .integer(range, unit), environment: environment, value: value ?? unit.rawValue, default: defaultText,
            hidden: hidden, help: help
        ) { configuration, value in
            if case .quantity(let quantity) = value { apply(&configuration, quantity) }
        }
    }

    /// Repeatable; the environment gives the values separated by `separator`, a file as an array.
    static func list(
        _ name: String, environment: String? = nil, separator: Character = ",", value: String,
        default defaultText: String? = nil, help: String,
        _ apply: @escaping @Sendable (inout ServeConfiguration, [String]) throws -> Void
    ) -> Setting {
        Setting(
            name, .list(separator), environment: environment, value: value, default: defaultText, hidden: false,
            help: help
        ) {
            configuration, value in
            if case .list(let values) = value { try apply(&configuration, values) }
        }
    }

    /// A secret from the environment only; an empty one is given (and refused as too short).
    static func secret(
        _ name: String, environment: String, help: String,
        _ apply: @escaping @Sendable (inout ServeConfiguration, String) -> Void
    ) -> Setting {
        Setting(name, .secret, environment: environment, value: "", default: nil, hidden: false, help: help) {
            configuration, value in
            if case .text(let text) = value { apply(&configuration, text) }
        }
    }
}
