extension Endpoint {
    /// `POST /biometric/register/options`: creation options for a new device key, after a step-up.
    package static let registrationOptions = Endpoint(.post, "/biometric/register/options")
    /// `POST /biometric/register/verify`: registers the device key.
    package static let registrationVerify = Endpoint(.post, "/biometric/register/verify")
    /// `POST /biometric/step-up/options`: a challenge that authorizes adding a device key.
    package static let stepUpOptions = Endpoint(.post, "/biometric/step-up/options")
    /// `GET /biometric/credentials`: the user's device keys.
    package static let listCredentials = Endpoint(.get, "/biometric/credentials")
    /// `DELETE /biometric/credentials/{id}`: revokes a device key.
    package static let revokeCredential = Endpoint(.delete, "/biometric/credentials/{id}")
    /// `GET /biometric/auth/options`: a challenge bound to the payment in the query.
    package static let authenticationOptionsFromQuery = Endpoint(.get, "/biometric/auth/options")
    /// `POST /biometric/auth/options`: the same, the payment as a JSON body.
    package static let authenticationOptionsFromBody = Endpoint(.post, "/biometric/auth/options")
    /// `POST /biometric/auth/verify`: a signed assertion traded for a single-use verification token.
    package static let authenticationVerify = Endpoint(.post, "/biometric/auth/verify")
}
