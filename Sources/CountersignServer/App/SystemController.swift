import CountersignAPI
import CountersignStore
import Foundation
import Hummingbird

/// `/health`, `/health/live`, `/health/ready` and `/openapi.yaml`.
package struct SystemController {
    let database: any Database
    /// Whether payments are pretend (the simulator, or Stripe's test mode): `/health` says so.
    let paymentsInTestMode: Bool
    /// Whether the SMS provider is the simulator (its messages readable at `GET /sim/sms`).
    let smsInTestMode: Bool
    /// The background workers, for readiness.
    let workers: WorkerStatus

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.on(.health, use: health)
        router.on(.healthLive, use: live)
        router.on(.healthReady, use: ready)
        router.on(.openAPIDocument, use: openAPI)
    }

    /// `GET /health` → 200 `{"status": "ok", "database": "sqlite|postgres", "paymentsTestMode": true|false}`
    /// when the store answers.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await database.ping()
        } catch {
            throw APIError(.databaseUnavailable, "The database is not answering.")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string:
                        #"{"status":"ok","database":"\#(database.engine)","paymentsTestMode":\#(paymentsInTestMode),"smsTestMode":\#(smsInTestMode)}"#
                ))
        )
    }

    /// `GET /health/live` → 200 `{"status": "ok"}` while the process answers; it asks nothing of the
    /// database, so a slow database never gets a live process restarted.
    @Sendable func live(_ request: Request, context: AppRequestContext) async throws -> LivenessResponse {
        LivenessResponse()
    }

    /// `GET /health/ready` → 200 when the database answers, has every migration this build knows and
    /// every background worker runs; otherwise 503 with the same body, saying which is missing. It
    /// turns 503 as soon as a graceful shutdown stops the workers, so a load balancer stops sending
    /// traffic while the requests in flight drain.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let known = Set(Migrator.all.map(\.version))
        let applied: Int?
        do {
            applied = try await Migrator.appliedVersions(database).filter(known.contains).count
        } catch {
            applied = nil
        }
        let workers = self.workers.snapshot
        let isReady = applied == known.count && workers.values.allSatisfy { $0 }
        let body = ReadinessResponse(
            status: isReady ? "ready" : "not_ready", database: "\(database.engine)", databaseAnswers: applied != nil,
            migrationsApplied: applied ?? 0, migrationsExpected: known.count, workers: workers)
        var response = try context.responseEncoder.encode(body, from: request, context: context)
        response.status = isReady ? .ok : .serviceUnavailable
        return response
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

extension LivenessResponse: ResponseEncodable {}
