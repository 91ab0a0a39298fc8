extension TwilioConfiguration {
    /// The variables Twilio is configured with. Secrets come only from here, never from flags or literals.
    package enum Variable: String, CaseIterable, Sendable {
        case accountSid = "TWILIO_ACCOUNT_SID"
        case apiKeySid = "TWILIO_API_KEY_SID"
        case apiKeySecret = "TWILIO_API_KEY_SECRET"
        case from = "TWILIO_FROM"
        case messagingServiceSid = "TWILIO_MESSAGING_SERVICE_SID"
        /// Optional: where the API is (a local fake); https://api.twilio.com otherwise.
        case baseURL = "TWILIO_API_BASE_URL"
    }

    /// The Twilio configuration in `environment`: nil when no `TWILIO_…` variable is set, which
    /// leaves messages to the simulator. Once `TWILIO_ACCOUNT_SID` is set, the API key, its secret
    /// and one sender (`TWILIO_FROM` or `TWILIO_MESSAGING_SERVICE_SID`) are required. Throws a
    /// message naming every variable that is missing, or the one whose value has the wrong shape;
    /// values themselves are never repeated in it. Empty values count as missing.
    package static func fromEnvironment(_ environment: [String: String]) throws(TwilioConfigurationError)
        -> TwilioConfiguration?
    {
        let value = { (variable: Variable) -> String? in
            environment[variable.rawValue].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let accountSid = value(.accountSid) else {
            let stray = Variable.allCases.filter { value($0) != nil }.map(\.rawValue)
            guard stray.isEmpty else {
                throw TwilioConfigurationError(
                    "\(stray.joined(separator: ", ")) \(stray.count == 1 ? "is" : "are") set without TWILIO_ACCOUNT_SID"
                )
            }
            return nil
        }
        let (from, service) = (value(.from), value(.messagingServiceSid))
        var missing = [Variable.apiKeySid, .apiKeySecret].filter { value($0) == nil }.map(\.rawValue)
        if from == nil && service == nil { missing.append("TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID") }
        guard missing.isEmpty, let apiKeySid = value(.apiKeySid), let apiKeySecret = value(.apiKeySecret) else {
            throw TwilioConfigurationError(
                "TWILIO_ACCOUNT_SID is set, so SMS go to Twilio, but \(missing.joined(separator: ", ")) "
                    + (missing.count == 1 ? "is" : "are") + " missing")
        }
        let sender: Sender
        switch (from, service) {
        case (let number?, nil): sender = .from(number)
        case (nil, let sid?): sender = .messagingService(sid)
        default:
            throw TwilioConfigurationError(
                "set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID, not both")
        }
        return try TwilioConfiguration(
            accountSid: accountSid, apiKeySid: apiKeySid, apiKeySecret: apiKeySecret, sender: sender,
            baseURL: value(.baseURL) ?? defaultBaseURL)
    }
}
