import Foundation

/// Where the server reads the time, in epoch milliseconds. Injected so tests can move time forward
/// to expire challenges, tokens and lockouts without sleeping.
package struct WallClock: Sendable {
    private let source: @Sendable () -> Int64

    /// A clock reading `source`.
    package init(_ source: @escaping @Sendable () -> Int64) { self.source = source }

    /// Now, in milliseconds since 1970.
    package func nowMillis() -> Int64 { source() }

    /// The machine's clock.
    package static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// An ISO 8601 UTC timestamp with second precision, e.g. `2024-01-22T10:30:45Z`.
    package static func iso8601(millis: Int64) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }
}
