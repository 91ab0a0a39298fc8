import ArgumentParser
import CountersignServer

/// `countersign webhooks add|list|remove`: the operator's webhook endpoints, on the store directly,
/// as `countersign operator …` does. Each change is recorded in the operator action log as done from
/// the command line.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks", abstract: "Register, list or remove webhook endpoints.",
        subcommands: [Add.self, List.self, Remove.self])

    /// `countersign webhooks add --url U --event T …`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an endpoint; prints its signing secret (whsec_…) once.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Where to send events: an https:// URL.") var url: String
        @Option(name: .customLong("event"), help: "An event type to send, repeatable; * for all (the default).")
        var events: [String] = []
        @Flag(
            help: "Allow loopback and private addresses and http://, as `serve --allow-private-webhook-targets` does.")
        var allowPrivateTargets = false

        func run() async throws {
            let (url, events, allowPrivate) = (url, events.isEmpty ? ["*"] : events, allowPrivateTargets)
            try await store.withExistingStore { services in
                let created = try await WebhooksCommand.service(services, allowPrivate: allowPrivate).create(
                    url: url, events: events, operatorId: nil, via: "cli")
                print("endpoint \(created.endpoint.id) for \(created.endpoint.events.joined(separator: ", "))")
                print("secret \(created.secret)")
                print("Keep the secret now: it is not shown again.")
            }
        }
    }

    /// `countersign webhooks list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the webhook endpoints.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withExistingStore { services in
                let endpoints = try await WebhooksCommand.service(services, allowPrivate: false).list()
                if endpoints.isEmpty { print("No webhook endpoints.") }
                for endpoint in endpoints {
                    let state = endpoint.enabled ? "enabled" : "disabled since \(endpoint.disabledAt ?? "?")"
                    print("\(endpoint.id)  \(endpoint.url)  \(endpoint.events.joined(separator: ","))  \(state)")
                }
            }
        }
    }

    /// `countersign webhooks remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a webhook endpoint.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The endpoint's id (whe_…).") var id: String

        func run() async throws {
            let id = id
            try await store.withExistingStore { services in
                try await WebhooksCommand.service(services, allowPrivate: false).remove(
                    id: id, operatorId: nil, via: "cli")
                print("removed \(id)")
            }
        }
    }

    static func service(_ services: AppServices, allowPrivate: Bool) -> WebhookService {
        WebhookService(
            database: services.database, clock: services.clock,
            policy: WebhookTargetPolicy(allowPrivate: allowPrivate || services.configuration.allowPrivateWebhookTargets)
        )
    }
}
