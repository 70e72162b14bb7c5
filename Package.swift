// swift-tools-version:6.2
import PackageDescription

/// The layers, for the test targets that test them directly.
let layers: [Target.Dependency] = [
    "ReconModel", "AppleData", "ReconStorage", "ReconImport", "ReconVerify", "ReconFindings", "ReconReports",
    "ReconLookup",
]

let package = Package(
    name: "iap-recon",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "iap-recon", targets: ["iap-recon"]),
        .library(name: "IAPRecon", targets: ["IAPRecon"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "SupportWeb", targets: ["SupportWeb"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CXlsxWriter",
            pkgConfig: "xlsxwriter",
            providers: [.apt(["libxlsxwriter-dev", "zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The layers, bottom up: each target depends only on the ones above it in this list, so the compiler
        // refuses a backward edge. Data flows import → verify → detect → report; `IAPRecon` composes them.
        // The values every layer speaks: money, ids, time, transactions, findings, run records.
        .target(
            name: "ReconModel",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // Apple's data: receipts, JWS and its chain, signed notifications, and the App Store clients.
        .target(
            name: "AppleData",
            dependencies: [
                "ReconModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The store: schema, migrations and what each stage reads and writes, in SQLite or PostgreSQL.
        .target(
            name: "ReconStorage",
            dependencies: [
                "ReconModel", "AppleData", "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Import: the ledger (files or the backend's PostgreSQL), receipts, notifications, Apple's reports.
        .target(
            name: "ReconImport",
            dependencies: [
                "ReconModel", "AppleData", "ReconStorage", "CZlib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Verify: decode the stored receipts and ask Apple about the pending ones.
        .target(
            name: "ReconVerify",
            dependencies: [
                "ReconModel", "AppleData", "ReconStorage",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Detect: the detectors, revenue, Apple's reports beside the ledger, and the detection engine.
        .target(
            name: "ReconFindings",
            dependencies: [
                "ReconModel", "AppleData", "ReconStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Report: the CSV files and the workbook (libxlsxwriter); zlib's CRC-32 of the revenue schedule.
        .target(
            name: "ReconReports",
            dependencies: [
                "ReconModel", "ReconStorage", "ReconFindings", "CXlsxWriter", "CZlib",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Support's answer to "I paid and got nothing", read from the store.
        .target(
            name: "ReconLookup",
            dependencies: ["ReconModel", "ReconStorage", "ReconFindings"]
        ),
        // The composition root: settings, and the commands that sequence the stages.
        .target(
            name: "IAPRecon",
            dependencies: [
                "ReconModel", "AppleData", "ReconStorage", "ReconImport", "ReconVerify", "ReconFindings",
                "ReconReports", "ReconLookup",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .target(
            name: "AppStoreTestSigning",
            dependencies: [
                "IAPRecon",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "IAPRecon",
                "AppStoreTestSigning",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "ReconDemo",
            dependencies: [
                "IAPRecon", "AppStoreSimulator", "AppStoreTestSigning", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "SupportWeb",
            dependencies: [
                "IAPRecon",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "iap-recon",
            dependencies: [
                "IAPRecon",
                "AppStoreSimulator",
                "ReconDemo",
                "SupportWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "iap-recon-bench",
            dependencies: [
                "IAPRecon", "AppStoreSimulator", "AppStoreTestSigning", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "IAPReconTestSupport",
            dependencies: ["IAPRecon", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "IAPReconTests",
            dependencies: [
                "IAPRecon", "IAPReconTestSupport", "AppStoreTestSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ] + layers,
            exclude: ["ReconReports/Snapshots", "ReconLookup/Snapshots"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "AppStoreSimulatorTests",
            dependencies: [
                "IAPRecon", "AppStoreSimulator", "IAPReconTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ] + layers
        ),
        .testTarget(
            name: "IAPReconTestSupportTests",
            dependencies: ["IAPReconTestSupport"]
        ),
        .testTarget(
            name: "AppStoreTestSigningTests",
            dependencies: ["IAPRecon", "AppStoreTestSigning"] + layers
        ),
        .testTarget(
            name: "ReconDemoTests",
            dependencies: ["IAPRecon", "AppStoreSimulator", "ReconDemo", "IAPReconTestSupport"] + layers,
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "iap-recon-benchTests",
            dependencies: ["iap-recon-bench"]
        ),
        .testTarget(
            name: "SupportWebTests",
            dependencies: [
                "SupportWeb", "IAPRecon", "IAPReconTestSupport", "AppStoreSimulator", "ReconDemo",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ] + layers
        ),
        .testTarget(
            name: "iap-reconTests",
            dependencies: [
                "iap-recon", "IAPReconTestSupport", "AppStoreSimulator", "AppStoreTestSigning", "ReconDemo",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
