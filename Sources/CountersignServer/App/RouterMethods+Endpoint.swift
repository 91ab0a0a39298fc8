import CountersignAPI
import Hummingbird

extension RouterMethods {
    /// Registers `handler` for `endpoint`: its template is a Hummingbird path as it stands
    /// (`{id}` is a capture), so the route table shows exactly the paths of CountersignAPI.
    @discardableResult
    func on(
        _ endpoint: Endpoint, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(endpoint.template), method: HTTPRequest.Method(rawValue: endpoint.method.rawValue)!, use: handler)
    }
}
