// swift-tools-version:6.1
import PackageDescription

// Every Swift target builds the same way: Swift 6 language mode (strict concurrency), and
// `MemberImportVisibility`, so a file sees only the members of modules it imports itself (D122).
// No unsafe flags: every binary is built as the toolchain builds any package (D450).
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]

// The products the targets use, named once.
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let unixSignals = Target.Dependency.product(name: "UnixSignals", package: "swift-service-lifecycle")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
// The sqlite3 C API alone: GRDB's system-library module, the SQLite the store links.
let grdbSQLite = Target.Dependency.product(name: "GRDBSQLite", package: "GRDB.swift")
let httpClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let postgres = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")

/// A library of Ledgerly's own, built with the shared settings.
func library(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: swiftSettings)
}

/// A service's executable: a small `@main` over the command in its library, which the multi-call
/// `ledgerly-services` runs too (D504).
func serviceExecutable(_ name: String, _ library: String) -> Target {
    .executableTarget(name: name, dependencies: [.byName(name: library), argumentParser], swiftSettings: swiftSettings)
}

func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [], resources: [Resource]? = nil) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude, resources: resources, swiftSettings: swiftSettings)
}

let runtime: [Target.Dependency] = ["LedgerlyRuntime", "LedgerlyCore", "LedgerlyProtocol", "ZeroMQ"]

let package = Package(
    name: "Ledgerly",
    platforms: [.macOS(.v15)],
    products: ["ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync", "ledgerly-web", "ledgerly",
               // The services in one binary, as the package installs them (D504).
               "ledgerly-services", "ledgerly-bench",
               // Does nothing: the start-up floor `ledgerly-bench ledger` times `ledgerly --version` against.
               "ledgerly-bench-true"].map { .executable(name: $0, targets: [$0]) },
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // swift-nio and swift-nio-ssl come with async-http-client and postgres-nio; named because
        // Ledgerly's code imports their modules directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // ledgerly-web's self-signed certificate for serving the home network over HTTPS (D590).
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        // SQLite's process-wide settings, which its variadic `sqlite3_config` makes (D371).
        .target(name: "CSQLiteConfiguration", linkerSettings: [.linkedLibrary("sqlite3")]),
        // glibc's malloc settings, which Swift's Glibc module does not import (D375).
        .target(name: "CMallocConfiguration"),
        library("ZeroMQ", ["CZeroMQ"]),
        library("LedgerlyCore"),
        // Files through system calls for the modules the CLI links, which import FoundationEssentials only (D380).
        library("LedgerlyFiles"),
        library("LedgerlyProtocol", ["LedgerlyCore"]),
        library("LedgerlyRuntime", ["ZeroMQ", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyFiles", logging, serviceLifecycle, argumentParser, unixSignals]),
        library("LedgerlyStore", runtime + [argumentParser, "CSQLiteConfiguration", "CMallocConfiguration", grdb, grdbSQLite, logging, serviceLifecycle]),
        library("LedgerlyRates", runtime + [argumentParser, logging, serviceLifecycle, httpClient, nioCore, nioHTTP1]),
        library("LedgerlyAlerts", runtime + [argumentParser, logging, serviceLifecycle, httpClient, nioCore, nioHTTP1, crypto]),
        library("LedgerlySync", runtime + [argumentParser, serviceLifecycle, postgres, crypto, .product(name: "_CryptoExtras", package: "swift-crypto"),
                                           logging, nioCore, nioPosix, nioSSL]),
        library("LedgerlyWeb", runtime + ["LedgerlyInterchange", argumentParser, .product(name: "Hummingbird", package: "hummingbird"),
                                          .product(name: "HTTPTypes", package: "swift-http-types"), nioCore, logging, serviceLifecycle, unixSignals,
                                          .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HummingbirdTLS", package: "hummingbird"), nioSSL, crypto,
                                          .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1")]),
        // Drivers of the real executables, for the tests and ledgerly-bench.
        library("LedgerlyTesting", runtime),
        library("LedgerlyInterchange", ["LedgerlyProtocol", "LedgerlyCore", "LedgerlyFiles"]),
        library("LedgerlyCLI", runtime + ["LedgerlyInterchange", "LedgerlyFiles", argumentParser]),
        serviceExecutable("ledgerly-store", "LedgerlyStore"),
        serviceExecutable("ledgerly-rates", "LedgerlyRates"),
        serviceExecutable("ledgerly-alerts", "LedgerlyAlerts"),
        serviceExecutable("ledgerly-sync", "LedgerlySync"),
        serviceExecutable("ledgerly-web", "LedgerlyWeb"),
        .executableTarget(name: "ledgerly", dependencies: ["LedgerlyCLI"], swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-services", dependencies: ["LedgerlyStore", "LedgerlyRates", "LedgerlyAlerts", "LedgerlySync", "LedgerlyWeb", argumentParser],
                          swiftSettings: swiftSettings),
        // The store's schema and the plain SQLite insert are among the limits ledgerly-bench measures.
        .executableTarget(name: "ledgerly-bench", dependencies: runtime + ["LedgerlyRates", "LedgerlyInterchange", "LedgerlyTesting", "LedgerlyStore", argumentParser, grdbSQLite],
                          swiftSettings: swiftSettings),
        .executableTarget(name: "ledgerly-bench-true", swiftSettings: swiftSettings),
        tests("ZeroMQTests", ["ZeroMQ"]),
        tests("LedgerlyCoreTests", ["LedgerlyCore"]),
        tests("LedgerlyWebTests", ["LedgerlyWeb", "LedgerlyCore", "LedgerlyRuntime", logging]),
        tests("LedgerlyInterchangeTests", ["LedgerlyInterchange", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyTesting"]),
        tests("LedgerlyProtocolTests", ["LedgerlyProtocol", "LedgerlyCore", "LedgerlyStore", "LedgerlyRuntime", "LedgerlyTesting"]),
        tests("FuzzTests", ["LedgerlyStore", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyRuntime", "LedgerlyTesting", logging], exclude: ["Corpus"]),
        tests("LedgerlyRatesTests", ["LedgerlyRates", "LedgerlyCore", "LedgerlyRuntime"], resources: [.copy("Fixtures")]),
        tests("LedgerlyAlertsTests", ["LedgerlyAlerts", "LedgerlyProtocol", "LedgerlyRuntime", crypto, logging, nioCore, nioHTTP1, nioPosix]),
        tests("LedgerlyStoreTests", ["LedgerlyStore", "LedgerlyProtocol", "LedgerlyCore", "LedgerlyRuntime", grdb, logging]),
        // The real executables; LedgerlySync to seal a forged hub row with the ledger's key (issue 44).
        tests("EndToEndTests", runtime + ["LedgerlyTesting", "LedgerlySync", "ledgerly-store", "ledgerly-rates", "ledgerly-alerts", "ledgerly-sync", "ledgerly"],
              exclude: ["Support/provider_server.py", "Support/webhook_receiver.py"]),
        // Against a real PostgreSQL cluster in a temporary folder, and a fake server with TLS.
        tests("LedgerlySyncTests", ["LedgerlySync", "LedgerlyRuntime", "LedgerlyTesting", postgres, crypto, logging, nioCore, nioPosix, nioSSL]),
        tests("LedgerlyRuntimeTests", ["LedgerlyRuntime", "LedgerlyProtocol", "ZeroMQ"]),
        // Commands in-process against a real store, and the `ledgerly` binary to compare what each prints.
        tests("LedgerlyCLITests", ["LedgerlyCLI", "LedgerlyTesting", "LedgerlyProtocol", "LedgerlyRuntime", "ledgerly-store", "ledgerly", argumentParser]),
    ],
    swiftLanguageModes: [.v6]
)
