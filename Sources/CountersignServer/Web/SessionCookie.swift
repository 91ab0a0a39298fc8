import Hummingbird

/// The browser's session: the same token as the JSON's `sessionToken`, in a cookie scripts cannot
/// read (HttpOnly), sent only by pages of this site (SameSite=Strict), only over TLS when the
/// server is reached over https (Secure, and the `__Host-` prefix, which pins it to this host).
package struct SessionCookie: Sendable {
    let name: String
    let secure: Bool
    let maxAgeSeconds: Int64

    package init(configuration: ServerConfiguration) {
        secure = configuration.publicBaseURL.hasPrefix("https://")
        name = secure ? "__Host-countersign_session" : "countersign_session"
        maxAgeSeconds = configuration.sessionSeconds
    }

    /// `Set-Cookie` for a new session.
    func setting(_ token: String) -> String {
        "\(name)=\(token); Path=/; Max-Age=\(maxAgeSeconds); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes it (logout).
    var clearing: String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The session token in a request's `Cookie` headers, if there is one.
    func token(in headers: HTTPFields) -> String? { headers.cookie(named: name) }
}

extension HTTPFields {
    /// The value of the cookie `name` in the `Cookie` headers, if it is there and not empty.
    func cookie(named name: String) -> String? {
        for header in self[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard trimmed.hasPrefix(name + "=") else { continue }
                let value = trimmed.dropFirst(name.count + 1)
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
