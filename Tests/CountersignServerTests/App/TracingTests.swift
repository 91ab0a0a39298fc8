import CountersignAPI
import CountersignStore
import Foundation
import Testing

@Suite("Traces over OTLP")
struct TracingTests {
    @Test(
        "serve --otlp-endpoint: a top-up's trace holds its server span, the database's spans and the supplier's inside it; an error body and the log lines carry the trace id",
        arguments: TestEngines.all)
    func topUpTrace(engine: DatabaseEngine) async throws {
        let pin = "731946"
        try await OTLPReceiver.run { receiver in
            let (log, refusedTraceId, transactionId) = try await ServeProcess.with(
                engine,
                extra: ["--otlp-endpoint", receiver.endpoint, "--log-format", "json", "--log-level", "info"],
                environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"]
            ) { server, fund in
                let phone = "0807" + String(Int.random(in: 1_000_000..<9_999_999))
                let session = try await server.client.post(
                    "/auth/signup", try await server.client.signupBody(phone: phone, name: "Trace test", pin: pin)
                ).decode(SessionResponse.self)
                try await fund(phone, 10_000)
                let paid = try await server.client.post(
                    "/user/topup",
                    TopUpRequest(
                        amount: 500, productCode: "AIRTIME_MTN", recipientPhone: "08012345678", supplierSlug: nil,
                        useCashback: nil, verificationToken: nil, pin: pin),
                    token: session.sessionToken)
                #expect(paid.status == 200, "\(paid.text)")
                let refused = try await server.client.get("/user/wallet", token: "not-a-session")
                #expect(refused.status == 401)
                let body = try refused.decode(ErrorResponse.self)
                let topUp = try paid.decode(TopUpResponse.self)
                #expect(await server.stop() == 0)
                return (server.output, body.error.traceId, topUp.data.transactionId)
            }
            let spans = receiver.spans
            // The top-up's server span, and everything in its trace.
            let servers = spans.filter { $0.name == "POST /user/topup" }
            let server = try #require(servers.count == 1 ? servers.first : nil, "\(spans.map(\.name))")
            #expect(server.parentSpanId == nil)
            #expect(server.attributes["http.response.status_code"] == "200")
            #expect(server.attributes["http.route"] == "/user/topup")
            let trace = spans.filter { $0.traceId == server.traceId }
            let byId = Dictionary(trace.map { ($0.spanId, $0) }) { first, _ in first }
            /// Whether `span` lies inside the server span.
            func inside(_ span: OTLPReceiver.Span) -> Bool {
                var parent = span.parentSpanId
                while let id = parent {
                    if id == server.spanId { return true }
                    parent = byId[id]?.parentSpanId
                }
                return false
            }
            let supplier = try #require(trace.first { $0.name == "supplier.purchase" }, "\(trace)")
            #expect(inside(supplier))
            #expect(supplier.attributes["countersign.transaction_id"] == transactionId)
            let transactions = trace.filter { $0.name == "db.transaction" }
            #expect(transactions.count >= 2, "the debit and the settlement: \(trace)")
            #expect(transactions.allSatisfy { $0.parentSpanId == server.spanId })
            let expectedSystem = engine == .postgres ? "postgresql" : "sqlite"
            #expect(transactions.allSatisfy { $0.attributes["db.system.name"] == expectedSystem })
            let statements = trace.filter { $0.name.hasPrefix("db.") && $0.attributes["db.query.text"] != nil }
            #expect(statements.contains { $0.name == "db.INSERT" } && statements.contains { $0.name == "db.UPDATE" })
            #expect(statements.allSatisfy(inside))
            // Nothing secret in any span: no PIN, no recipient number.
            for span in spans {
                for value in span.attributes.values + [span.name] {
                    #expect(!value.contains(pin) && !value.contains("08012345678"), "\(span)")
                }
            }

            // The refusal's body names its trace, which the receiver has, as a 401 server span.
            let refusedId = try #require(refusedTraceId)
            #expect(refusedId.count == 32 && refusedId.allSatisfy(\.isHexDigit))
            #expect(spans.contains { $0.traceId == refusedId && $0.attributes["http.response.status_code"] == "401" })

            // The request's log record carries the same trace id.
            let records = log.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
            }
            let topUpRecord = records.first { $0["message"] == "request" && $0["route"] == "/user/topup" }
            #expect(topUpRecord?["trace_id"] == server.traceId, "\(records)")
        }
    }
}
