#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ports for servers started on 127.0.0.1, by the bench and by the tests.
package enum LoopbackPort {
    /// A port below the kernel's ephemeral range (32768 and up on Linux), so that no outgoing
    /// connection of this or another process holds it, which a bind accepts right now. Between
    /// this check and the server's own bind another process may take it; the server then fails to
    /// start with "Address already in use" (the tests start it again on another port).
    package static func free() throws -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<32_000)
            if try isFree(port) { return port }
        }
        throw HarnessError("no free loopback port in 20000..<32000 after 50 tries")
    }

    /// 127.0.0.1:`port` as a socket address.
    package static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func isFree(_ port: Int) throws -> Bool {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }
}
