// swift-tools-version:6.1
import PackageDescription

/// One settings array applied to every Swift target, so every module builds the same way:
/// Swift 6 language mode (strict concurrency) with warnings treated as errors in CI.
/// `MemberImportVisibility`: a file sees only the members of modules it imports itself, so every
/// module a target uses is imported where it is used and declared among its dependencies (D122).
/// No unsafe flags: every binary is built as the toolchain builds any package (D450).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Ledgerly",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ledgerly-store", targets: ["ledgerly-store"]),
        .executable(name: "ledgerly-rates", targets: ["ledgerly-rates"]),
        .executable(name: "ledgerly-alerts", targets: ["ledgerly-alerts"]),
        .executable(name: "ledgerly-sync", targets: ["ledgerly-sync"]),
        .executable(name: "ledgerly-web", targets: ["ledgerly-web"]),
        .executable(name: "ledgerly", targets: ["ledgerly"]),
        // The four services in one binary, as the package installs them (D504).
        .executable(name: "ledgerly-services", targets: ["ledgerly-services"]),
        .executable(name: "ledgerly-bench", targets: ["ledgerly-bench"]),
        // Does nothing: the start-up floor `ledgerly-bench ledger` times `ledgerly --version` against.
        .executable(name: "ledgerly-bench-true", targets: ["ledgerly-bench-true"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // Already there through async-http-client; named because the alerts and rates code and the
        // alerts tests import its modules directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // The sync hub's PostgreSQL client (LedgerlySync); it brings swift-nio-ssl, whose NIOSSL
        // the hub's TLS configuration names, so swift-nio-ssl is declared too.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // ledgerly-web's HTTP server (issue 47), and the header names its responses set.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: swiftSettings),
        .target(name: "LedgerlyCore", swiftSettings: swiftSettings),
        // Files through system calls, for the modules the CLI links, which import
        // FoundationEssentials only (D380): LedgerlyCore stays free of I/O.
        .target(name: "LedgerlyFiles", swiftSettings: swiftSettings),
        .target(name: "LedgerlyProtocol", dependencies: ["LedgerlyCore"], swiftSettings: swiftSettings),
        .target(
            name: "LedgerlyRuntime",
            dependencies: [
                "ZeroMQ", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyFiles",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The service executables' shared options (`ServiceOptions`).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // SQLite's process-wide settings, which its variadic `sqlite3_config` makes (D371).
        .target(name: "CSQLiteConfiguration", linkerSettings: [.linkedLibrary("sqlite3")]),
        // glibc's malloc settings, which Swift's Glibc module does not import (D375).
        .target(name: "CMallocConfiguration"),
        .target(
            name: "LedgerlyStore",
            dependencies: [
                // Its command (`StoreCommand`), run by its executable and ledgerly-services (D504).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LedgerlyRuntime", "LedgerlyCore", "LedgerlyProtocol", "ZeroMQ", "CSQLiteConfiguration", "CMallocConfiguration",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LedgerlyRates",
            dependencies: [
                // Its command (`RatesCommand`), run by its executable and ledgerly-services (D504).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LedgerlyRuntime", "LedgerlyCore", "LedgerlyProtocol", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LedgerlyAlerts",
            dependencies: [
                // Its command (`AlertsCommand`), run by its executable and ledgerly-services (D504).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LedgerlyRuntime", "LedgerlyCore", "LedgerlyProtocol", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Sync between devices through a PostgreSQL hub (issue 17): the hub client, the ledger key
        // and sealing of messages, the device's credential files. No store, no service loop.
        .target(
            name: "LedgerlySync",
            dependencies: [
                // Its command (`SyncCommand`), run by its executable and ledgerly-services (D504).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The service loop (`Service/`): follows the store like the other services.
                "LedgerlyRuntime", "LedgerlyProtocol", "LedgerlyCore", "ZeroMQ",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // ledgerly-web (issue 47): pages, charts and sign-in over the store's protocol, like the CLI.
        .target(
            name: "LedgerlyWeb",
            dependencies: [
                // Its command (`WebCommand`), run by its executable and ledgerly-services (D504).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LedgerlyRuntime", "LedgerlyProtocol", "LedgerlyCore", "ZeroMQ",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The bound address (a port of 0 picks a free one), read off the server's channel.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Shared by the test targets and ledgerly-bench: drivers that run the real executables.
        .target(name: "LedgerlyTesting", dependencies: ["LedgerlyRuntime", "LedgerlyProtocol", "LedgerlyCore", "ZeroMQ"], swiftSettings: swiftSettings),
        .target(name: "LedgerlyInterchange", dependencies: ["LedgerlyProtocol", "LedgerlyCore", "LedgerlyFiles"], swiftSettings: swiftSettings),
        .target(
            name: "LedgerlyCLI",
            dependencies: [
                "LedgerlyRuntime", "LedgerlyInterchange", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyFiles", "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ledgerly-store",
            dependencies: ["LedgerlyStore", "LedgerlyRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-rates", dependencies: ["LedgerlyRates", "LedgerlyRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-alerts", dependencies: ["LedgerlyAlerts", "LedgerlyRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-sync", dependencies: ["LedgerlySync", "LedgerlyRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-web", dependencies: ["LedgerlyWeb", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly", dependencies: ["LedgerlyCLI"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "ledgerly-services",
            dependencies: ["LedgerlyStore", "LedgerlyRates", "LedgerlyAlerts", "LedgerlySync", "LedgerlyWeb", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "ledgerly-bench",
            dependencies: [
                "LedgerlyRuntime", "LedgerlyRates", "LedgerlyCore", "LedgerlyInterchange", "LedgerlyTesting", "LedgerlyProtocol", "ZeroMQ",
                // The store's migrations, for the limit that inserts into the store's own schema.
                "LedgerlyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The sqlite3 C API alone (GRDB's system-library module, the same SQLite the store
                // links): the plain batched insert that `ledgerly-bench ledger` measures as a limit.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "ledgerly-bench-true", swiftSettings: swiftSettings),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: swiftSettings),
        .testTarget(name: "LedgerlyCoreTests", dependencies: ["LedgerlyCore"], swiftSettings: swiftSettings),
        .testTarget(name: "LedgerlyWebTests", dependencies: ["LedgerlyWeb", "LedgerlyCore", "LedgerlyRuntime"], swiftSettings: swiftSettings),
        .testTarget(name: "LedgerlyInterchangeTests", dependencies: ["LedgerlyInterchange", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "LedgerlyProtocolTests", dependencies: ["LedgerlyProtocol", "LedgerlyCore", "LedgerlyStore", "LedgerlyRuntime", "LedgerlyTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FuzzTests",
            dependencies: ["LedgerlyStore", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyRuntime", "LedgerlyTesting", .product(name: "Logging", package: "swift-log")],
            exclude: ["Corpus"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LedgerlyRatesTests",
            dependencies: ["LedgerlyRates", "LedgerlyCore", "LedgerlyRuntime"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LedgerlyAlertsTests",
            dependencies: [
                "LedgerlyAlerts", "LedgerlyProtocol", "LedgerlyRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LedgerlyStoreTests",
            dependencies: ["LedgerlyStore", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyRuntime", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LedgerlyRuntime", "LedgerlyTesting", "LedgerlyProtocol", "LedgerlyCore", "ZeroMQ",
                // The sync tests seal a forged hub row with the ledger's key (issue 44, finding 5).
                "LedgerlySync",
                "ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync", "ledgerly",
            ],
            exclude: ["Support/provider_server.py", "Support/webhook_receiver.py"],
            swiftSettings: swiftSettings
        ),
        // Runs against a real PostgreSQL cluster made in a temporary folder (`TemporaryPostgres`).
        .testTarget(
            name: "LedgerlySyncTests",
            dependencies: [
                "LedgerlySync", "LedgerlyRuntime", "LedgerlyTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The fake PostgreSQL server's TLS (HubAuthenticationTests).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LedgerlyRuntimeTests",
            dependencies: ["LedgerlyRuntime", "LedgerlyProtocol", "ZeroMQ"],
            swiftSettings: swiftSettings
        ),
        // Runs commands in-process against a real store started from its executable, and the
        // `ledgerly` binary beside them to compare what each prints.
        .testTarget(
            name: "LedgerlyCLITests",
            dependencies: [
                "LedgerlyCLI", "LedgerlyTesting", "LedgerlyProtocol", "LedgerlyRuntime",
                "ledgerly-store", "ledgerly",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
