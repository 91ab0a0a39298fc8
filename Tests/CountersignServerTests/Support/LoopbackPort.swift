#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ports for server children on 127.0.0.1.
enum LoopbackPort {
    /// A port below the kernel's ephemeral range (32768 and up on Linux), so that no outgoing
    /// connection of this or another process holds it, which a bind accepts right now. Between
    /// this check and the child's own bind another test may take it; `ServeProcess` then starts
    /// the child again on another port.
    static func free() throws -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<32_000)
            if try isFree(port) { return port }
        }
        throw TestFailure("no free loopback port in 20000..<32000 after 50 tries")
    }

    private static func isFree(_ port: Int) throws -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
    }
}
