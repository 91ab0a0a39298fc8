/// The parts of Twilio's answers the sender reads (API 2010-04-01, JSON).
enum TwilioObject {
    /// A Message resource, as `POST …/Messages.json` answers 201.
    struct Message: Decodable, Sendable {
        /// `SM` (or `MM`) and 32 hex digits.
        let sid: String
        /// `queued`, `accepted`, `scheduled`…: only that Twilio took it.
        let status: String?
    }

    /// The body of a 4xx or 5xx from the 2010 API: `{"code": 21211, "message": "…", "more_info":
    /// "https://www.twilio.com/docs/errors/21211", "status": 400}`. `code` is Twilio's error code,
    /// the stable part; `message` is for people and may name the number.
    struct Failure: Decodable, Sendable, Equatable {
        let code: Int?
        let message: String?
        let moreInfo: String?
        let status: Int?

        enum CodingKeys: String, CodingKey {
            case code, message, status
            case moreInfo = "more_info"
        }
    }
}
