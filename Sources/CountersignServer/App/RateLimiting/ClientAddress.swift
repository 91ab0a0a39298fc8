import HTTPTypes
import Hummingbird
import NIOCore

/// The address a request came from: the connection's peer, unless that peer is a proxy the
/// operator trusts (`--trusted-proxy`), in which case the nearest address in `X-Forwarded-For` that
/// is not itself a trusted proxy. A forwarded header from anyone else is ignored: a client could
/// write any address there.
package struct ClientAddress: Sendable {
    /// Addresses of trusted proxies, as text (`10.0.0.5`, `::1`).
    let trustedProxies: Set<String>

    package init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies)
    }

    /// The client's address as text, or `unknown` when the connection has none (a Unix socket).
    package func of(_ request: Request, context: AppRequestContext) -> String {
        guard let peer = context.peerAddress?.ipAddress else { return "unknown" }
        guard trustedProxies.contains(peer) else { return peer }
        // X-Forwarded-For: client, proxy1, proxy2 — each proxy appends the address it saw; the
        // rightmost entries are the ones our own proxies wrote.
        let forwarded = request.headers[values: .xForwardedFor].joined(separator: ",")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for address in forwarded.suffix(64).reversed() where !trustedProxies.contains(address) {
            return String(address.prefix(64))
        }
        return peer
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
