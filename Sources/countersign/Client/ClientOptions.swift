import ArgumentParser
import CountersignClient
import CountersignClientAsyncHTTP
import Foundation

/// The flags every client command shares: which server, and which profile directory.
struct ClientOptions: ParsableArguments {
    @Option(
        help:
            "The server's base URL (env COUNTERSIGN_SERVER; else the logged-in session's; default http://127.0.0.1:8080)."
    )
    var server: String?

    @Option(
        help:
            "The profile directory: session, device key, local PIN hash (env COUNTERSIGN_PROFILE; default ~/.countersign-client)."
    )
    var profile: String?

    /// The profile these flags name (flag, then environment, then default).
    func clientProfile() -> ClientProfile {
        let environment = ProcessInfo.processInfo.environment
        let directory = profile ?? environment["COUNTERSIGN_PROFILE"] ?? (NSHomeDirectory() + "/.countersign-client")
        return ClientProfile(directory: directory)
    }

    /// The server URL: flag, environment, the stored session's server, the default.
    func serverURL(_ session: ClientProfile.Session? = nil) -> String {
        server ?? ProcessInfo.processInfo.environment["COUNTERSIGN_SERVER"] ?? session?.server
            ?? "http://127.0.0.1:8080"
    }

    /// An API client for the server, resuming `session` when given.
    func apiClient(_ session: ClientProfile.Session? = nil) -> CountersignAPIClient {
        CountersignAPIClient(
            transport: AsyncHTTPClientTransport(baseURL: serverURL(session)), sessionToken: session?.sessionToken)
    }

    /// The logged-in profile and a client carrying its session.
    func loggedIn() throws -> (profile: ClientProfile, session: ClientProfile.Session, client: CountersignAPIClient) {
        let profile = clientProfile()
        let session = try profile.requireSession()
        return (profile, session, apiClient(session))
    }
}
