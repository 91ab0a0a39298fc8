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
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // For the SQLite amalgamation it vendors (module VaporCSQLite), which the embedded
                // store calls directly; SQLiteNIO's own connection type is not used.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")]
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
        // What the bench and the server tests share to drive a server: loopback ports, child
        // processes, user enrolment over the SDK. Internal: no product ships it.
        .target(
            name: "CountersignHarness",
            dependencies: ["CountersignAPI", "CountersignClient"]
        ),
        .executableTarget(
            name: "countersign-bench",
            dependencies: [
                "CountersignAPI",
                "CountersignClient",
                "CountersignCore",
                "CountersignHarness",
                "CountersignServer",
                "WebAuthn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
                "CountersignHarness",
                "CountersignServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ]
)
