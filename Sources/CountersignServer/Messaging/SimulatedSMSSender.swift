import CountersignAPI
import CountersignStore

/// The SMS simulator, the default provider: it sends nothing; each message is kept in the store
/// (`simulated_sms`) and readable at `GET /sim/sms?phone=` while the server is in test mode, so
/// tests, the demo and the web app's test mode can read the codes a phone would have received.
/// It is for development and tests only: every one-time code it "sends" is readable there.
package struct SimulatedSMSSender: SMSSender {
    let database: any Database
    let clock: WallClock

    package var isLive: Bool { false }

    package func send(to phone: String, body: String) async throws(SMSError) -> SentSMS {
        let (id, now) = (Identifier.make("sim_sms"), clock.nowMillis())
        do {
            try await database.transaction { sql in
                try await sql.execute(
                    "INSERT INTO simulated_sms (id, to_phone, body, sent_at) VALUES ($1, $2, $3, $4)",
                    [.text(id), .text(phone), .text(body), .integer(now)])
            }
        } catch {
            throw .unavailable(message: "the simulator's store refused the message: \(error)")
        }
        return SentSMS(providerId: id)
    }

    /// The messages sent to `phone`, newest first (at most `limit`).
    package func messages(to phone: String, limit: Int = 20) async throws -> [SimulatedSMSList.Message] {
        try await database.read { sql in
            try await sql.query(
                "SELECT to_phone, body, sent_at FROM simulated_sms WHERE to_phone = $1 ORDER BY sent_at DESC, id DESC LIMIT $2",
                [.text(phone), .int(limit)]
            ).map { row in
                SimulatedSMSList.Message(
                    to: try row.string("to_phone"), body: try row.string("body"),
                    sentAt: WallClock.iso8601(millis: try row.int("sent_at")))
            }
        }
    }
}
