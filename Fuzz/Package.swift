// swift-tools-version:6.1
// libFuzzer targets for the parsers a request reaches. Built and run by scripts/fuzz; see Fuzz/README.md.
import PackageDescription

/// One executable per fuzz target: (target directory, products it needs from the main package).
let fuzzTargets: [(name: String, products: [String])] = [
    ("cbor", ["WebAuthn"]),
    ("authenticator-data", ["WebAuthn"]),
    ("client-data", ["WebAuthn"]),
    ("cose-key", ["WebAuthn"]),
    ("der-signature", ["WebAuthn"]),
    ("registration", ["WebAuthn"]),
    ("json-requests", ["CountersignAPI"]),
]

let package = Package(
    name: "countersign-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "countersign", path: "..")],
    targets: [.target(name: "FuzzDriver")]
        + fuzzTargets.map { target in
            .executableTarget(
                name: "fuzz-\(target.name)",
                dependencies: ["FuzzDriver"] + target.products.map { .product(name: $0, package: "countersign") },
                path: "Sources/\(target.name)"
            )
        }
)
