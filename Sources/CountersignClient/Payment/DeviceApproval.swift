import CountersignAPI

/// The payer's approval on the device: local authentication, then a signature over what they saw.
/// Transfers and airtime purchases ask for it the same way.
struct DeviceApproval: Sendable {
    /// Why the device gave no assertion.
    enum Refusal: Error, Equatable {
        /// Local authentication did not succeed.
        case localAuth(LocalAuthError)
        /// The device could not or would not sign.
        case signing(SigningError)
    }

    let authenticator: any LocalAuthenticator
    let signer: any TransactionSigner

    /// Authenticates with `reason`, calls `willSign`, then signs with `sign`. Errors of other types
    /// than the protocols promise count as a failed authentication or an unusable key.
    func approve(
        reason: String, willSign: () -> Void = {}, sign: (any TransactionSigner) throws -> AuthenticationResponseJSON
    ) async -> Result<AuthenticationResponseJSON, Refusal> {
        do {
            _ = try await authenticator.authenticate(reason: reason)
        } catch {
            return .failure(.localAuth((error as? LocalAuthError) ?? .failed))
        }
        willSign()
        do {
            return .success(try sign(signer))
        } catch {
            return .failure(.signing((error as? SigningError) ?? .keyUnavailable(String(describing: error))))
        }
    }
}
