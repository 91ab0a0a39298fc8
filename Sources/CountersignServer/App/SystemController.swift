import CountersignAPI
import CountersignStore
import Foundation
import Hummingbird

/// `/health` and `/openapi.yaml`.
package struct SystemController {
    let database: any Database
    /// Whether payments are pretend (the simulator, or Stripe's test mode): `/health` says so.
    let paymentsInTestMode: Bool

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.on(.health, use: health)
        router.on(.openAPIDocument, use: openAPI)
    }

    /// `GET /health` → 200 `{"status": "ok", "database": "sqlite|postgres", "paymentsTestMode": true|false}`
    /// when the store answers.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            _ = try await database.read { sql in try await sql.first("SELECT 1 AS one") }
        } catch {
            throw APIError(.databaseUnavailable, "The database is not answering.")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string:
                        #"{"status":"ok","database":"\#(database.engine)","paymentsTestMode":\#(paymentsInTestMode)}"#))
        )
    }

    /// `GET /openapi.yaml`: the API description.
    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else {
            throw APIError(.notFound, "No such resource.")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
