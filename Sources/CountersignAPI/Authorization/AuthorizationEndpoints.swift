extension Endpoint {
    /// Creation options for a new device key, after a step-up.
    package static let registrationOptions = Endpoint(.post, "/biometric/register/options")
    /// Registers the device key.
    package static let registrationVerify = Endpoint(.post, "/biometric/register/verify")
    /// A challenge that authorizes adding a device key.
    package static let stepUpOptions = Endpoint(.post, "/biometric/step-up/options")
    /// The user's device keys.
    package static let listCredentials = Endpoint(.get, "/biometric/credentials")
    /// Revokes a device key.
    package static let revokeCredential = Endpoint(.delete, "/biometric/credentials/{id}")
    /// A challenge bound to the payment in the query.
    package static let authenticationOptionsFromQuery = Endpoint(.get, "/biometric/auth/options")
    /// The same, the payment as a JSON body.
    package static let authenticationOptionsFromBody = Endpoint(.post, "/biometric/auth/options")
    /// A signed assertion traded for a single-use verification token.
    package static let authenticationVerify = Endpoint(.post, "/biometric/auth/verify")
}
