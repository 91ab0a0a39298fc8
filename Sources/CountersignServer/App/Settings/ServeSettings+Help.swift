/// `countersign serve --help`, written from the table: each setting's flag, what it takes, its help,
/// its environment variable, range and default; the secrets, which have no flag, last.
extension ServeSettings {
    package static var help: String {
        var lines = wrapped(
            "Each setting is a flag, else its environment variable, else its key in the --config file (the flag's name without --), else its default.",
            indent: "")
        lines += ["", "  --config <file>"]
        lines += wrapped(
            "A JSON object of settings, e.g. {\"port\": 8443, \"origin\": [\"https://pay.example\"]}; at most 1 MB, every key a setting. (env \(configFileEnvironment))"
        )
        for setting in all where !setting.hidden && !setting.isSecret {
            lines.append("  \(setting.flag)\(usage(setting))")
            lines += wrapped("\(setting.help) (\(details(setting)))")
        }
        lines += ["", "From the environment only (secrets):"]
        for setting in all where setting.isSecret {
            lines.append("  \(setting.environment)")
            lines += wrapped(setting.help)
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most 78 columns, each after `indent`, so the help's own wrapping
    /// (80 columns) leaves them as they are.
    private static func wrapped(_ text: String, indent: String = "      ") -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > 78 {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        return lines + [line]
    }

    private static func usage(_ setting: Setting) -> String {
        switch setting.kind {
        case .flag: ""
        case .list: " <\(setting.valueName)> (repeatable)"
        default: " <\(setting.valueName)>"
        }
    }

    private static func details(_ setting: Setting) -> String {
        var details = ["env \(setting.environment)"]
        switch setting.kind {
        case .list(let separator): details[0] += separator == "," ? ", comma-separated" : ", \(separator)-separated"
        case .flag: details[0] += "=1"
        case .integer(let range, let unit):
            details.append("\(range.lowerBound) to \(range.upperBound)\(unit == .number ? "" : " \(unit.rawValue)")")
        default: break
        }
        if let defaultText = setting.defaultText { details.append("default \(defaultText)") }
        return details.joined(separator: "; ")
    }
}
