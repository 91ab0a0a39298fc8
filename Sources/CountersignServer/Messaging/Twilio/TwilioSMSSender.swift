import AsyncHTTPClient
import CountersignAPI
import Foundation
import Logging
import NIOCore

/// Sends text messages with Twilio's Messages API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`,
/// form-encoded `To`, `From` or `MessagingServiceSid`, `Body`), authenticated with an API key over
/// HTTP Basic. Each attempt has a deadline (`TwilioConfiguration.timeout`, connecting included);
/// network failures, 429 and 5xx are tried again under `TwilioRetryPolicy`; Twilio's refusals are
/// mapped to `SMSError` by error code. The secret, the message body and the Authorization header
/// are never logged. Tested against a local fake checked against Twilio's OpenAPI description,
/// never against Twilio itself (see docs/sms.md).
package struct TwilioSMSSender: SMSSender {
    let configuration: TwilioConfiguration
    let http: HTTPClient
    let logger: Logger

    package init(configuration: TwilioConfiguration, http: HTTPClient = .shared, logger: Logger) {
        self.configuration = configuration
        self.http = http
        self.logger = logger
    }

    /// True for Twilio itself; false for a fake on plain-http loopback, whose messages reach no phone.
    package var isLive: Bool { configuration.baseURL.hasPrefix("https://") }

    package func send(to phone: String, body: String) async throws(SMSError) -> SentSMS {
        let request = self.request(to: phone, body: body)
        let policy = configuration.retry
        let attempts = max(1, policy.attempts)
        var last = ""
        for attempt in 1...attempts {
            switch await self.attempt(request) {
            case .success(let sent):
                return sent
            case .failure(.refused(let error)):
                // A number that cannot take SMS is the user's to fix; anything else needs an operator.
                let level: Logger.Level = if case .undeliverable = error { .notice } else { .error }
                logger.log(level: level, "twilio refused the message", metadata: ["error": "\(error)"])
                throw error
            case .failure(.retryable(let reason, let retryAfter)):
                last = reason
                guard attempt < attempts else { break }
                let wait = policy.delay(after: attempt, retryAfter: retryAfter)
                logger.warning(
                    "twilio did not take the message; trying again",
                    metadata: ["attempt": "\(attempt)", "reason": "\(reason)", "wait": "\(wait)"])
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw .unavailable(message: "cancelled before attempt \(attempt + 1); last: \(last)")
                }
            }
        }
        logger.error("twilio could not be reached", metadata: ["attempts": "\(attempts)", "reason": "\(last)"])
        throw .unavailable(message: "Twilio did not take the message in \(attempts) attempts; last: \(last)")
    }

    /// The request every attempt repeats.
    func request(to phone: String, body: String) -> HTTPClientRequest {
        var form = [("To", phone)]
        switch configuration.sender {
        case .from(let number): form.append(("From", number))
        case .messagingService(let sid): form.append(("MessagingServiceSid", sid))
        }
        form.append(("Body", body))
        var request = HTTPClientRequest(url: configuration.baseURL + Self.path(account: configuration.accountSid))
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let encoded = form.map { Endpoint.percentEncoded($0.0) + "=" + Endpoint.percentEncoded($0.1) }
        request.body = .bytes(ByteBuffer(string: encoded.joined(separator: "&")))
        return request
    }

    /// One attempt: the Message SID, or why not.
    private func attempt(_ request: HTTPClientRequest) async -> Result<SentSMS, TwilioAttemptFailure> {
        let status: Int
        let data: Data
        let retryAfter: Duration?
        do {
            let response = try await http.execute(request, timeout: TimeAmount(configuration.timeout))
            status = Int(response.status.code)
            retryAfter = response.headers.first(name: "Retry-After").flatMap(Int64.init).map { .seconds($0) }
            data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            logger.debug(
                "twilio answered",
                metadata: [
                    "status": "\(status)", "request_id": "\(response.headers.first(name: "Twilio-Request-Id") ?? "-")",
                ])
        } catch {
            return .failure(.retryable("no answer: \(error)", retryAfter: nil))
        }
        if (200..<300).contains(status) {
            guard let message = try? JSONDecoder().decode(TwilioObject.Message.self, from: data),
                TwilioConfiguration.isSid(message.sid, prefix: "SM")
                    || TwilioConfiguration.isSid(message.sid, prefix: "MM")
            else {
                // Twilio may have taken the message: another attempt could send it twice.
                return .failure(.refused(.unavailable(message: "HTTP \(status) without a Message SID")))
            }
            return .success(SentSMS(providerId: message.sid))
        }
        let failure = try? JSONDecoder().decode(TwilioObject.Failure.self, from: data)
        return .failure(
            TwilioObject.Failure.outcome(status: status, failure: failure, retryAfter: retryAfter, redact: redacted))
    }

    /// `/2010-04-01/Accounts/{AccountSid}/Messages.json`; the SID's shape was checked, so it needs no escaping.
    static func path(account: String) -> String { "/2010-04-01/Accounts/\(account)/Messages.json" }

    /// `Basic base64(APIKeySid:APIKeySecret)`.
    private var authorization: String {
        "Basic " + Data("\(configuration.apiKeySid):\(configuration.apiKeySecret)".utf8).base64EncodedString()
    }

    /// `text` with the secret cut out, should an answer ever echo it.
    func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: configuration.apiKeySecret, with: "[redacted]")
            .replacingOccurrences(of: authorization, with: "[redacted]")
    }
}
