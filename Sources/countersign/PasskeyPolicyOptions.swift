import ArgumentParser
import CountersignServer

/// `serve`'s flags for what a passkey must prove: `--synced-passkeys`.
struct PasskeyPolicyOptions: ParsableArguments {
    @Option(
        name: .customLong("synced-passkeys"),
        help:
            "allow (default): synced passkeys register and pay, their backup flags recorded. deny: a backup-eligible key is refused at registration and a key whose backup-state flag is set cannot authorize a payment."
    )
    var syncedPasskeys: String?

    /// The policy these flags describe, or a message naming the flag that is wrong.
    func policy() throws -> PasskeyPolicy {
        var policy = PasskeyPolicy()
        if let syncedPasskeys {
            guard let value = PasskeyPolicy.SyncedPasskeys(rawValue: syncedPasskeys) else {
                throw ValidationError("--synced-passkeys must be allow or deny")
            }
            policy.syncedPasskeys = value
        }
        return policy
    }
}
