import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where webhooks may go. A URL is https (http only with `allowPrivate`, for loopback receivers in
/// tests), at most 2048 bytes, with a host and no user or password. Its host is resolved again at
/// every attempt and refused if any address is private, loopback, link-local, unique-local,
/// multicast, reserved or unspecified (IPv4 and IPv6, v4-mapped and NAT64 too), so an endpoint
/// cannot reach the server's own network, even by a name that later resolves elsewhere; the
/// attempt then connects to the address checked, not to a second lookup's.
package struct WebhookTargetPolicy: Sendable {
    /// `serve --allow-private-webhook-targets`: no address checks, and http allowed.
    package let allowPrivate: Bool

    package init(allowPrivate: Bool) { self.allowPrivate = allowPrivate }

    package static let maxURLBytes = 2048

    /// The URL's refusal, in words for the operator; nil if it may be registered.
    package func refusal(of url: String) -> String? {
        guard url.utf8.count <= Self.maxURLBytes else { return "url must be at most \(Self.maxURLBytes) bytes." }
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty
        else { return "url must be an absolute https:// URL with a host." }
        guard parts.user == nil, parts.password == nil else { return "url must not carry a user or password." }
        guard scheme == "https" || (scheme == "http" && allowPrivate) else {
            return "url must start with https://."
        }
        if !allowPrivate, let address = Self.literal(host), Self.isForbidden(address) {
            return "url must not name a private, loopback or otherwise internal address."
        }
        return nil
    }

    /// The address an attempt connects to for `host`: the first it resolves to, if none is
    /// forbidden. Throws `WebhookTargetRefused` otherwise.
    func address(for host: String) async throws -> String {
        let addresses = try await Self.resolve(host)
        guard let first = addresses.first else { throw WebhookTargetRefused(reason: "\(host) does not resolve") }
        if !allowPrivate, addresses.contains(where: Self.isForbidden) {
            throw WebhookTargetRefused(reason: "\(host) resolves to a private or internal address")
        }
        return Self.text(first)
    }

    /// Whether an address (4 or 16 bytes) is one webhooks never reach.
    package static func isForbidden(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 { return isForbiddenV4(bytes) }
        guard bytes.count == 16 else { return true }
        let head = Array(bytes[0..<12])
        // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible) and 64:ff9b::a.b.c.d (NAT64) carry IPv4.
        if head == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] || head == [UInt8](repeating: 0, count: 12)
            || head == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]
        {
            return isForbiddenV4(Array(bytes[12..<16]))
        }
        if bytes[0] == 0xff { return true } // multicast ff00::/8
        if bytes[0] & 0xfe == 0xfc { return true } // unique-local fc00::/7
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return true } // link-local fe80::/10
        if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0xc0 { return true } // site-local fec0::/10 (deprecated)
        if bytes[0] == 0x20, bytes[1] == 0x02 { return isForbiddenV4(Array(bytes[2..<6])) } // 6to4 2002::/16
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] == 0x0d, bytes[3] == 0xb8 { return true } // documentation
        return false
    }

    static func isForbiddenV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): true // unspecified "this network", private, loopback
        case (100, 64...127): true // shared address space (carrier-grade NAT)
        case (169, 254): true // link-local, cloud metadata
        case (172, 16...31), (192, 168): true // private
        case (192, 0) where b[2] == 0 || b[2] == 2: true // IETF protocol assignments, documentation
        case (198, 18...19): true // benchmarking
        case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: true // documentation
        case (224...255, _): true // multicast, reserved, broadcast
        default: false
        }
    }

    /// The bytes of an IP literal (brackets allowed), or nil for a name.
    static func literal(_ host: String) -> [UInt8]? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func text(_ bytes: [UInt8]) -> String {
        bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
    }

    /// Every address `host` resolves to (getaddrinfo, on NIO's thread pool: it blocks).
    static func resolve(_ host: String) async throws -> [[UInt8]] {
        if let literal = literal(host) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
                hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let list else {
                throw WebhookTargetRefused(reason: "\(host) does not resolve")
            }
            defer { freeaddrinfo(list) }
            var found: [[UInt8]] = []
            var next: UnsafeMutablePointer<addrinfo>? = list
            while let info = next {
                if let address = info.pointee.ai_addr {
                    switch Int32(info.pointee.ai_family) {
                    case AF_INET:
                        var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                        found.append(withUnsafeBytes(of: &v4) { Array($0) })
                    case AF_INET6:
                        var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                        found.append(withUnsafeBytes(of: &v6) { Array($0) })
                    default: break
                    }
                }
                next = info.pointee.ai_next
            }
            return found
        }
    }
}

/// An attempt refused before connecting: the target is not allowed.
struct WebhookTargetRefused: Error, CustomStringConvertible {
    let reason: String
    var description: String { "refused: " + reason }
}
