import Foundation

/// The one place `serve`'s settings are read: command-line flags, then environment variables, then
/// the `--config` file, then the defaults. Everything is checked before anything listens or writes.
extension ServeSettings {
    /// The largest configuration file read.
    package static let maxFileBytes = 1 << 20

    /// The configuration the arguments (after `serve`), the environment and the configuration file
    /// they name describe; a `SettingsError` names the first setting refused and where it came from.
    package static func resolve(
        arguments: [String], environment: [String: String]
    ) throws(SettingsError) -> ServeConfiguration {
        try resolve(arguments, environment, settings: all, readsFile: true)
    }

    /// The store's settings (`store`) for the commands that only open a store: flags, then environment.
    package static func resolveStore(
        arguments: [String], environment: [String: String]
    ) throws(SettingsError) -> ServerConfiguration {
        try resolve(arguments, environment, settings: store, readsFile: false).server
    }

    private static func resolve(
        _ arguments: [String], _ environment: [String: String], settings: [Setting], readsFile: Bool
    ) throws(SettingsError) -> ServeConfiguration {
        let (flags, file) = try parse(arguments, settings, readsFile: readsFile)
        let filePath = file ?? (readsFile ? nonEmpty(environment[configFileEnvironment]) : nil)
        let fileValues = try filePath.map { path throws(SettingsError) in try read(path, settings) } ?? [:]
        var configuration = ServeConfiguration()
        for setting in settings {
            let given: Given? =
                flags[setting.name]
                ?? environment[setting.environment].flatMap { Given(environment: $0, setting) }
                ?? fileValues[setting.name]
            guard let given, let value = try given.value(for: setting) else { continue }
            do {
                try setting.apply(&configuration, value)
            } catch {
                throw SettingsError("\(given.source) \(error)")
            }
        }
        if readsFile { try configuration.finish(environment: environment) }
        return configuration
    }

    /// A value as one source gave it, before it is checked against its setting.
    struct Given {
        enum Raw {
            case flag(Bool)
            case texts([String])
            case integer(Int64)
        }
        let source: String
        let raw: Raw

        /// An environment variable; an empty one is unset, except a secret's (refused as too short).
        init?(environment text: String, _ setting: Setting) {
            guard !text.isEmpty || setting.isSecret else { return nil }
            source = setting.environment
            switch setting.kind {
            case .flag: raw = .texts([text])
            case .list(let separator):
                raw = .texts(
                    text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                        !$0.isEmpty
                    })
            default: raw = .texts([text])
            }
        }

        init(source: String, raw: Raw) {
            self.source = source
            self.raw = raw
        }

        /// The value checked against the setting's kind; nil for a flag turned off.
        func value(for setting: Setting) throws(SettingsError) -> Setting.Value? {
            switch (setting.kind, raw) {
            case (.flag, .flag(let on)): return on ? .on : nil
            case (.flag, .texts(let texts)):
                switch texts.last?.lowercased() {
                case "1", "true": return .on
                case "0", "false": return nil
                default: throw SettingsError("\(source) must be 1 or 0 (true or false)")
                }
            case (.list, .texts(let texts)): return .list(texts)
            case (.text, .texts(let texts)), (.secret, .texts(let texts)): return texts.last.map { .text($0) }
            case (.choice(let words), .texts(let texts)):
                guard let word = texts.last, words.contains(word) else {
                    throw SettingsError("\(source) must be one of \(words.joined(separator: ", "))")
                }
                return .text(word)
            case (.integer(let range, let unit), _):
                let number: Int64?
                switch raw {
                case .integer(let value): number = value
                case .texts(let texts): number = texts.last.flatMap { Int64($0) }
                case .flag: number = nil
                }
                let units = unit == .number ? "" : " \(unit.rawValue)"
                guard let number else { throw SettingsError("\(source) must be a whole number\(units)") }
                guard range.contains(number) else {
                    throw SettingsError(
                        "\(source) must be between \(range.lowerBound) and \(range.upperBound)\(units), not \(number)")
                }
                return .quantity(Setting.Quantity(value: number, unit: unit))
            case (.flag, _): throw SettingsError("\(source) must be true or false")
            case (.list, _): throw SettingsError("\(source) must be a list of text values")
            default: throw SettingsError("\(source) must be text")
            }
        }
    }

    /// The flags, and the `--config` file named: `--name value`, `--name=value`, or `--name` for an
    /// on/off setting; a repeatable one collects every value, another keeps the last.
    private static func parse(
        _ arguments: [String], _ settings: [Setting], readsFile: Bool
    ) throws(SettingsError) -> ([String: Given], String?) {
        let byName = Dictionary(settings.filter { !$0.isSecret }.map { ($0.name, $0) }) { first, _ in first }
        var flags: [String: Given] = [:]
        var file: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw SettingsError("unexpected argument \(argument): every setting is a --flag")
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let setting = byName[name]
            guard setting != nil || (readsFile && name == configFile) else {
                throw SettingsError("unknown option --\(name)")
            }
            if case .flag = setting?.kind {
                guard inline == nil else { throw SettingsError("--\(name) takes no value") }
                flags[name] = Given(source: "--\(name)", raw: .flag(true))
                continue
            }
            guard let value = inline ?? (index < arguments.endIndex ? arguments[index] : nil) else {
                throw SettingsError("--\(name) needs a value")
            }
            if inline == nil { index += 1 }
            guard let setting else {
                file = value
                continue
            }
            var values = [value]
            if setting.isRepeatable, case .texts(let earlier) = flags[name]?.raw { values = earlier + values }
            flags[name] = Given(source: "--\(name)", raw: .texts(values))
        }
        return (flags, file)
    }

    /// A configuration file's settings: a JSON object whose keys are the flags' names without `--`.
    /// A file that cannot be read, is larger than `maxFileBytes`, is not such an object, or has a key
    /// that is no setting (or is a secret, which comes from the environment only) is refused.
    private static func read(_ path: String, _ settings: [Setting]) throws(SettingsError) -> [String: Given] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        guard let size, let data = FileManager.default.contents(atPath: path) else {
            throw SettingsError("--config \(path): cannot read the file")
        }
        guard size <= maxFileBytes, data.count <= maxFileBytes else {
            throw SettingsError("--config \(path): larger than \(maxFileBytes) bytes")
        }
        let object: [String: FileValue]
        do {
            object = try JSONDecoder().decode([String: FileValue].self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw SettingsError("\"\(context.codingPath[0].stringValue)\" in \(path): not a value a setting takes")
        } catch {
            throw SettingsError("--config \(path): not a JSON object of settings (\(error))")
        }
        var given: [String: Given] = [:]
        let names = Set(settings.filter { !$0.isSecret }.map(\.name))
        for (key, value) in object {
            guard names.contains(key) else {
                throw SettingsError(
                    "\"\(key)\" in \(path): unknown setting (the keys are serve's flags without --; secrets come from the environment only)"
                )
            }
            given[key] = Given(source: "\"\(key)\" in \(path)", raw: value.raw)
        }
        return given
    }

    /// A value in a configuration file: true or false, a whole number, text, or a list of texts.
    private enum FileValue: Decodable {
        case bool(Bool)
        case integer(Int64)
        case texts([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else if let text = try? container.decode(String.self) {
                self = .texts([text])
            } else {
                self = .texts(try container.decode([String].self))
            }
        }

        var raw: Given.Raw {
            switch self {
            case .bool(let on): .flag(on)
            case .integer(let value): .integer(value)
            case .texts(let texts): .texts(texts)
            }
        }
    }

    private static func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
}
