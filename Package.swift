// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "countersign",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "CountersignCore", targets: ["CountersignCore"]),
        .library(name: "CountersignAPI", targets: ["CountersignAPI"]),
        // The server and its store are not libraries: their API is `package`, for this package's
        // executables and tests; the server is run as `countersign serve`.
        // The SDK, and a transport to go with it: URLSession for apps, AsyncHTTPClient on SwiftNIO.
        .library(name: "CountersignClient", targets: ["CountersignClient"]),
        .library(name: "CountersignClientURLSession", targets: ["CountersignClientURLSession"]),
        .library(name: "CountersignClientAsyncHTTP", targets: ["CountersignClientAsyncHTTP"]),
        .executable(name: "countersign", targets: ["countersign"]),
        .executable(name: "countersign-bench", targets: ["countersign-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Traces over OTLP/HTTP only: the gRPC exporter's packages are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests only: reads openapi.yaml as YAML, so a document no YAML parser accepts fails the suite.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    // Each target names every module it imports (scripts/check-dependencies checks it), and the SDK
    // stays portable: no SwiftNIO, no HTTP client, no verifier in CountersignClient's closure.
    targets: [
        // What the verifier, the server and the SDK share at the byte level: base64url, the CBOR
        // encoder, constant-time comparison, secure random bytes, and the Payment Request
        // dictionaries Secure Payment Confirmation signs. No dependencies.
        .target(name: "CountersignCodec", swiftSettings: swiftSettings),
        .target(
            name: "WebAuthn",
            dependencies: [
                "CountersignCodec",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        // Runs WebAuthn test vector files: `countersign webauthn check` and the verifier's tests.
        .target(name: "WebAuthnVectors", dependencies: ["WebAuthn"], swiftSettings: swiftSettings),
        .target(
            name: "CountersignCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto")
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CountersignAPI",
            dependencies: ["CountersignCodec", "CountersignCore"],
            swiftSettings: swiftSettings
        ),
        // The system's SQLite library (apt: libsqlite3-dev), which the embedded store calls directly.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // A VFS over the system's default one that writes each SQLite WAL commit with one call.
        .target(name: "CSQLiteWAL", dependencies: ["CSQLite"]),
        // The storage engines: embedded SQLite and PostgreSQL behind one `Database` protocol,
        // prepared statements, and the migrations with their runner.
        .target(
            name: "CountersignStore",
            dependencies: [
                "CSQLite",
                "CSQLiteWAL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CountersignServer",
            dependencies: [
                "CountersignAPI",
                "CountersignCodec",
                "CountersignCore",
                "CountersignStore",
                "WebAuthn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CountersignClient",
            dependencies: [
                "CountersignAPI",
                "CountersignCodec",
                "CountersignCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "CountersignClientURLSession", dependencies: ["CountersignClient"], swiftSettings: swiftSettings),
        .target(
            name: "CountersignClientAsyncHTTP",
            dependencies: [
                "CountersignClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "countersign",
            dependencies: [
                "CountersignAPI",
                "CountersignClient",
                "CountersignClientAsyncHTTP",
                "CountersignCore",
                "CountersignServer",
                "CountersignStore",
                "WebAuthn",
                "WebAuthnVectors",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the bench and the server tests share to drive a server: loopback ports, child
        // processes, user enrolment over the SDK. Internal: no product ships it.
        .target(
            name: "CountersignHarness",
            dependencies: ["CountersignAPI", "CountersignClient", "CountersignCodec"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "countersign-bench",
            dependencies: [
                "CSQLite",
                "CountersignAPI",
                "CountersignClient",
                "CountersignCodec",
                "CountersignCore",
                "CountersignHarness",
                "CountersignServer",
                "CountersignStore",
                "WebAuthn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CountersignCodecTests",
            dependencies: ["CountersignCodec"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "CountersignCodec",
                // The software authenticator lives in the SDK; the verifier's tests sign with it.
                "CountersignClient",
                "WebAuthn",
                "WebAuthnVectors",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CountersignCoreTests",
            dependencies: ["CountersignCodec", "CountersignCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CountersignClientTests",
            dependencies: [
                "CountersignAPI",
                "CountersignClient",
                "CountersignCore",
                // The SDK's assertions are checked with the verifier they are meant for.
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CountersignServerTests",
            dependencies: [
                "CountersignAPI",
                "CountersignClient",
                "CountersignClientAsyncHTTP",
                "CountersignClientURLSession",
                "CountersignCodec",
                "CountersignCore",
                "CountersignHarness",
                "CountersignServer",
                "CountersignStore",
                "WebAuthn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

/// Every target: Swift 6 (complete concurrency checking), and `any` spelled out on every existential.
var swiftSettings: [SwiftSetting] {
    [.enableUpcomingFeature("ExistentialAny")]
}
