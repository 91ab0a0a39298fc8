import ArgumentParser
import CountersignServer
import Foundation

/// `serve`'s flags for what a passkey must prove: `--synced-passkeys`, `--authenticator-allow`,
/// `--authenticator-deny`.
struct PasskeyPolicyOptions: ParsableArguments {
    @Option(
        name: .customLong("synced-passkeys"),
        help:
            "allow (default): synced passkeys register and pay, their backup flags recorded. deny: a backup-eligible key is refused at registration and a key whose backup-state flag is set cannot authorize a payment."
    )
    var syncedPasskeys: String?

    @Option(
        name: .customLong("authenticator-allow"),
        help:
            "An authenticator model (AAGUID, UUID text) that may register; repeatable. When given, only listed models whose attestation chains to their FIDO metadata roots (countersign mds import) register."
    )
    var authenticatorAllow: [String] = []

    @Option(
        name: .customLong("authenticator-deny"),
        help:
            "An authenticator model (AAGUID, UUID text) refused at registration when its attestation proves it; repeatable."
    )
    var authenticatorDeny: [String] = []

    /// The policy these flags describe, or a message naming the flag that is wrong.
    func policy() throws -> PasskeyPolicy {
        var policy = PasskeyPolicy()
        if let syncedPasskeys {
            guard let value = PasskeyPolicy.SyncedPasskeys(rawValue: syncedPasskeys) else {
                throw ValidationError("--synced-passkeys must be allow or deny")
            }
            policy.syncedPasskeys = value
        }
        policy.authenticatorAllow = try Self.models(authenticatorAllow, flag: "--authenticator-allow")
        policy.authenticatorDeny = try Self.models(authenticatorDeny, flag: "--authenticator-deny")
        return policy
    }

    static func models(_ values: [String], flag: String) throws -> Set<UUID> {
        try Set(
            values.map { text in
                guard let uuid = UUID(uuidString: text) else {
                    throw ValidationError(
                        "\(flag) must be an AAGUID in UUID form (e.g. 08987058-cadc-4b81-b6e1-30de50dcbe96), not \(text)"
                    )
                }
                return uuid
            })
    }
}
