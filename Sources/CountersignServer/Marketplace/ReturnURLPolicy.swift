import Foundation

/// Where a payment provider's page may send the payer back: only to the origins and app schemes the
/// operator configured (by default the server's own public base URL). Anything else would make the
/// hosted page an open redirect: a link that starts on our domain and lands on the attacker's.
package struct ReturnURLPolicy: Sendable {
    /// `https://host[:port]` origins, normalised.
    let origins: Set<String>
    /// App schemes (`myapp`), lowercased.
    let schemes: Set<String>

    /// A policy from configured entries: an origin (`https://shop.example`, `http://localhost:8080`)
    /// or an app scheme (`myapp:`). Throws naming the first entry that is neither.
    package init(allowing entries: [String]) throws(ReturnURLPolicyError) {
        var origins: Set<String> = []
        var schemes: Set<String> = []
        for entry in entries {
            if entry.hasSuffix(":"), let scheme = Self.appScheme(String(entry.dropLast())) {
                schemes.insert(scheme)
            } else if let origin = Self.origin(of: entry), Self.isBare(entry) {
                origins.insert(origin)
            } else {
                throw ReturnURLPolicyError(entry: entry)
            }
        }
        self.origins = origins
        self.schemes = schemes
    }

    /// Whether `url` has an allowed shape (`MarketplaceService.isReturnURL`) and leads to an
    /// allowed origin or app scheme.
    package func permits(_ url: String) -> Bool {
        guard MarketplaceService.isReturnURL(url), !url.contains("\\") else { return false }
        if let origin = Self.origin(of: url) { return origins.contains(origin) }
        guard let colon = url.firstIndex(of: ":"), let scheme = Self.appScheme(String(url[..<colon])) else {
            return false
        }
        return schemes.contains(scheme)
    }

    /// `scheme://host[:port]` of an http(s) URL, lowercased, the default port dropped; nil for any
    /// other URL, or one with user information (`https://good@evil`).
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// Whether an http(s) URL is an origin alone: no path but `/`, no query, no fragment. An entry
    /// `https://shop.example/app` would otherwise be read as all of `https://shop.example`.
    static func isBare(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        return ["", "/"].contains(components.path) && components.query == nil && components.fragment == nil
    }

    /// A scheme that is an app's own (not http, https or a script scheme), lowercased.
    static func appScheme(_ scheme: String) -> String? {
        let lowered = scheme.lowercased()
        guard let first = lowered.first, first.isLetter,
            lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !["http", "https", "javascript", "vbscript", "data", "file", "blob"].contains(lowered)
        else { return nil }
        return lowered
    }
}

/// A configured return origin that is neither an http(s) origin nor an app scheme.
package struct ReturnURLPolicyError: Error, CustomStringConvertible {
    let entry: String
    package var description: String {
        "return origin \(entry) is neither an origin (https://host[:port]) nor an app scheme (myapp:)"
    }
}
