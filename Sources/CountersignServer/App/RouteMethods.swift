import Hummingbird
import Synchronization

/// The methods each registered path answers, to tell "no such path" (404) from "not this method"
/// (405 with `Allow`). Hummingbird's router answers 404 to both.
package final class RouteMethods: Sendable {
    private let paths = Mutex<[(segments: [Substring], methods: Set<String>)]>([])

    package init() {}

    /// Reads the router's table; call once every route is added.
    package func load(_ routes: [Router<AppRequestContext>.RouteDescription]) {
        var byPath: [String: Set<String>] = [:]
        for route in routes { byPath["\(route.path)", default: []].insert(route.method.rawValue) }
        let table = byPath.map { (segments: $0.key.split(separator: "/"), methods: $0.value) }
        paths.withLock { $0 = table }
    }

    /// The methods a path answers, sorted; empty if no route has that path.
    package func allowed(for path: String) -> [String] {
        let segments = path.split(separator: "/")
        // A path far longer than any route's cannot match one; do not compare it.
        guard segments.count <= 16 else { return [] }
        let methods = paths.withLock { table in
            table.filter { Self.matches($0.segments, segments) }.reduce(into: Set<String>()) {
                $0.formUnion($1.methods)
            }
        }
        return methods.sorted()
    }

    /// Segment by segment: a `{parameter}` or `*` matches any one segment.
    static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { pattern, segment in
            pattern == segment || pattern == "*" || (pattern.hasPrefix("{") && pattern.hasSuffix("}"))
        }
    }
}
