import Hummingbird

/// The browser's device token: what lets a browser that held a session of a user sign in again
/// with the PIN alone. Never the session itself; HttpOnly, SameSite=Strict, `__Host-` and Secure
/// over https, like the session cookie, but long-lived (400 days, the most browsers keep).
package struct DeviceCookie: Sendable {
    let name: String
    let secure: Bool

    static let maxAgeSeconds = 400 * 86_400

    package init(configuration: ServerConfiguration) {
        secure = configuration.publicBaseURL.hasPrefix("https://")
        name = secure ? "__Host-countersign_device" : "countersign_device"
    }

    /// `Set-Cookie` for a device the server now remembers.
    func setting(_ token: String) -> String {
        "\(name)=\(token); Path=/; Max-Age=\(Self.maxAgeSeconds); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// The device token in a request's `Cookie` headers, if there is one.
    func token(in headers: HTTPFields) -> String? { headers.cookie(named: name) }
}
