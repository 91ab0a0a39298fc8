import CountersignAPI
import CountersignServer
import CountersignStore
import Foundation
import Testing
import WebAuthn

/// Each class of bad input gets a 4xx with a stable code, never a 500, and writes nothing.
@Suite("Bad input")
struct BadInputTests {
    /// Sends `body` raw to `path` and checks status, code and that no table changed.
    static func expectRefused(
        _ server: LiveServer, _ path: String, raw: [UInt8], token: String?, status: Int, code: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await LedgerAudit.snapshot(server.database)
        let response = try await server.client.send(.POST, path, raw: raw, token: token)
        #expect(
            response.status == status, "\(path) \(String(decoding: raw.prefix(80), as: UTF8.self)): \(response.text)",
            sourceLocation: sourceLocation)
        #expect(response.errorCode == code, "\(response.text)", sourceLocation: sourceLocation)
        #expect(
            try await LedgerAudit.snapshot(server.database) == before, "\(path) wrote rows",
            sourceLocation: sourceLocation)
    }

    @Test("malformed JSON, wrong types, missing fields, out-of-range amounts", arguments: TestEngines.all)
    func topUpBodies(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let cases: [(String, Int, String)] = [
                ("{", 400, "invalid_json"),
                ("", 400, "invalid_json"),
                ("[1,2]", 400, "invalid_type"),
                (#"{"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400, "missing_field"),
                (
                    #"{"amount":"500","productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "invalid_type"
                ),
                (
                    #"{"amount":5.5,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "invalid_value"
                ),
                (
                    #"{"amount":1e30,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "invalid_value"
                ),
                (
                    #"{"amount":0,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "invalid_amount"
                ),
                (
                    #"{"amount":-500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "invalid_amount"
                ),
                (
                    #"{"amount":9223372036854775807,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827"}"#,
                    400, "amount_out_of_range"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_XYZ","recipientPhone":"08012345678","pin":"4827"}"#, 400,
                    "unknown_product"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","supplierSlug":"glo","recipientPhone":"08012345678","pin":"4827"}"#,
                    422, "supplier_mismatch"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"call me","pin":"4827"}"#, 400,
                    "invalid_phone"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","verificationToken":""#
                        + String(repeating: "a", count: 4096) + #""}"#, 400, "invalid_verification_token"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678"}"#, 400,
                    "authorization_required"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"12"}"#, 400,
                    "invalid_pin"
                ),
                (
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827","verificationToken":"x"}"#,
                    400, "ambiguous_authorization"
                ),
            ]
            for (body, status, code) in cases {
                try await Self.expectRefused(
                    server, "/user/topup", raw: Array(body.utf8), token: user.token, status: status, code: code)
            }
            let huge =
                Array(
                    #"{"amount":500,"productCode":"AIRTIME_MTN","recipientPhone":"08012345678","pin":"4827","pad":""#
                        .utf8) + Array(repeating: UInt8(ascii: "a"), count: 70_000) + Array(#""}"#.utf8)
            try await Self.expectRefused(
                server, "/user/topup", raw: huge, token: user.token, status: 413, code: "body_too_large")
        }
    }

    @Test("invalid base64url, truncated CBOR and authenticator data, unknown credentials", arguments: TestEngines.all)
    func webAuthnBodies(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.fundedUser()
            let device = try #require(user.device)
            let options = try await server.authOptions(user).decode(AuthenticationOptionsResponse.self)
            let good = try server.assertion(device, challenge: options.challenge)
            func encoded(_ body: AuthenticationResponseJSON) throws -> [UInt8] { Array(try JSONEncoder().encode(body)) }

            var body = good
            body.response.signature = "not base64url!"
            try await Self.expectRefused(
                server, "/biometric/auth/verify", raw: try encoded(body), token: user.token, status: 400,
                code: "invalid_base64url")

            body = good
            body.response.authenticatorData = Base64URL.encode(
                Array(try #require(Base64URL.decode(good.response.authenticatorData)).prefix(20)))
            let truncated = try await server.client.send(
                .POST, "/biometric/auth/verify", raw: try encoded(body), token: user.token)
            #expect(truncated.status == 400)
            #expect(truncated.errorCode?.hasPrefix("malformed") == true, "\(truncated.text)")

            body = good
            body.response.clientDataJSON = Base64URL.encode(Array("not json".utf8))
            try await Self.expectRefused(
                server, "/biometric/auth/verify", raw: try encoded(body), token: user.token, status: 400,
                code: "malformed_client_data")

            body = good
            let unknown = Base64URL.encode(Array(repeating: 7, count: 32))
            body.id = unknown
            body.rawId = unknown
            let unknownResponse = try await server.client.send(
                .POST, "/biometric/auth/verify", raw: try encoded(body), token: user.token)
            #expect(unknownResponse.status == 401)
            #expect(unknownResponse.errorCode == "unknown_credential")

            // Registration: an attestation object cut short.
            let registrationOptions = try await RegistrationTests.options(server, user)
            let registration = device.makeRegistration(
                challenge: try #require(Base64URL.decode(registrationOptions.challenge)))
            let cut = RegistrationResponseJSON(
                id: Base64URL.encode(device.credentialId), rawId: Base64URL.encode(device.credentialId),
                response: .init(
                    clientDataJSON: Base64URL.encode(registration.clientDataJSON),
                    attestationObject: Base64URL.encode(Array(registration.attestationObject.prefix(40))))
            )
            let cutResponse = try await server.client.send(
                .POST, "/biometric/register/verify", raw: Array(try JSONEncoder().encode(cut)), token: user.token)
            #expect(cutResponse.status == 400, "\(cutResponse.text)")
            #expect(cutResponse.errorCode?.hasPrefix("malformed") == true, "\(cutResponse.text)")
            #expect(try await LedgerAudit.count("credentials", server.database) == 1)

            try await Self.expectRefused(
                server, "/biometric/auth/verify", raw: Array("{}".utf8), token: user.token, status: 400,
                code: "missing_field")
        }
    }

    @Test("sessions: missing, bad and revoked tokens are 401; unknown routes 404", arguments: TestEngines.all)
    func sessions(engine: DatabaseEngine) async throws {
        try await LiveServer.run(engine) { server in
            let user = try await server.signup()
            #expect(try await server.client.get("/user/wallet").errorCode == "unauthenticated")
            #expect(try await server.client.get("/user/wallet", token: "nope").status == 401)
            #expect(try await server.client.get("/user/wallet", token: user.token).status == 200)
            #expect(try await server.client.post("/auth/logout", token: user.token).status == 204)
            #expect(try await server.client.get("/user/wallet", token: user.token).status == 401)
            let missing = try await server.client.get("/no/such/route")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
        }
    }
}
