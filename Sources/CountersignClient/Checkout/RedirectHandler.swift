import Foundation

/// How the payer came back from a payment provider's page.
public enum RedirectOutcome: Sendable, Equatable {
    /// Back through the return URL: the provider has an answer (authorized or failed), which the
    /// server is asked for; the handler never decides the outcome.
    case returned
    /// Back without finishing: the payer closed the page, cancelled, or walked away from the bank app.
    case abandoned
}

/// Takes the payer to a provider's page (3-D Secure, iDEAL, Bancontact) and back.
///
/// An iOS app implements it with `ASWebAuthenticationSession` on the return URL's scheme (its
/// cancel error is `.abandoned`); a terminal prints the link and waits for the payer to say they are
/// done. It returns only once the payer is back in the app.
public protocol RedirectHandler: Sendable {
    /// Opens `url` for the payer and returns how they came back.
    func open(_ url: URL) async -> RedirectOutcome
}
