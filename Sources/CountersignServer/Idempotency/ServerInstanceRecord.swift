/// A server process as the store knows it: alive while `leaseExpiresAt` is in the future.
package struct ServerInstanceRecord: Sendable, Equatable {
    package let id: String
    package let pid: Int64
    /// Where `pid` means something (see `ServerInstance.currentPIDNamespace`); nil if unknown.
    package let pidNamespace: String?
    package let startedAt: Int64
    package let leaseExpiresAt: Int64
}
