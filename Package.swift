// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "countersign",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "CountersignCore", targets: ["CountersignCore"]),
        .library(name: "CountersignAPI", targets: ["CountersignAPI"]),
        .library(name: "CountersignServer", targets: ["CountersignServer"]),
        .library(name: "CountersignClient", targets: ["CountersignClient"]),
        .executable(name: "countersign", targets: ["countersign"]),
        .executable(name: "countersign-bench", targets: ["countersign-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Spike only (issue 11): the hot path served through swift-openapi-generator's code.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        // Tests only: reads openapi.yaml as YAML, so a document no YAML parser accepts fails the suite.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "WebAuthn",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "CountersignCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "CountersignAPI",
            dependencies: ["CountersignCore"]
        ),
        .target(
            name: "CountersignServer",
            dependencies: [
                "CountersignAPI",
                "CountersignCore",
                "WebAuthn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                "CountersignOpenAPISpike",
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // For the SQLite amalgamation it vendors (module VaporCSQLite), which the embedded
                // store calls directly; SQLiteNIO's own connection type is not used.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")]
        ),
        // Spike (issue 11): swift-openapi-generator's types and server stubs for the hot path, generated
        // once by its CLI (see openapi-generator-config.yaml) into a target of their own, as
        // Hummingbird's template keeps them.
        .target(
            name: "CountersignOpenAPISpike",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi-generator-config.yaml", "openapi.yaml"]
        ),
        .target(
            name: "CountersignClient",
            dependencies: [
                "CountersignAPI",
                "CountersignCore",
                "WebAuthn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "countersign",
            dependencies: [
                "CountersignClient",
                "CountersignCore",
                "CountersignServer",
                "WebAuthn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "countersign-bench",
            dependencies: [
                "CountersignClient",
                "CountersignServer",
                "WebAuthn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "WebAuthnTests",
            // The software authenticator lives in the SDK; the verifier's tests sign with it.
            dependencies: ["WebAuthn", "CountersignClient"]
        ),
        .testTarget(
            name: "CountersignCoreTests",
            dependencies: ["CountersignCore"]
        ),
        .testTarget(
            name: "CountersignClientTests",
            dependencies: ["CountersignClient"]
        ),
        .testTarget(
            name: "CountersignServerTests",
            dependencies: [
                "CountersignClient",
                "CountersignServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ]
)
