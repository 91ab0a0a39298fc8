#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a free TCP port on 127.0.0.1 for the server child.
enum FreePort {
    /// Binds port 0 on loopback, reads the port the kernel chose, and closes the socket. Another
    /// process could take it before the server binds; on this otherwise idle machine that is
    /// vanishingly rare, and the server would then fail to start with a clear log line.
    static func loopback() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw BenchError("bind(127.0.0.1:0) failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw BenchError("getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// 127.0.0.1:`port` (0: let the kernel choose) as a socket address.
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A bench failure with a message for the operator.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, for the operator.
    let description: String
    /// An error with this message.
    init(_ description: String) { self.description = description }
}
