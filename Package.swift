// swift-tools-version: 6.2
//
// CommandKit: the Command design pattern as a production tool. The libraries use only the Swift
// toolchain and system C libraries (SQLite3). LaunchKitServiceLifecycle, behind the opt-in
// `ServiceLifecycleIntegration` trait, is the only product on outside packages: a package that
// does not enable the trait never resolves or builds them. The albums app is a package of its own
// in App/ (depending on this one by path), so its packages never reach a library user's
// resolution (ARCHITECTURE.md, "Two packages").

import PackageDescription

let package = Package(
    name: "CommandKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "CommandKit", targets: ["CommandKit"]),
        .library(name: "LaunchKit", targets: ["LaunchKit"]),
        .library(name: "SQLiteDatabase", targets: ["SQLiteDatabase"]),
        .library(name: "CommandStore", targets: ["CommandStore"]),
        .library(name: "AlbumLibrary", targets: ["AlbumLibrary"]),
        .library(name: "LaunchKitServiceLifecycle", targets: ["LaunchKitServiceLifecycle"]),
        .library(name: "PostgreSQLDatabase", targets: ["PostgreSQLDatabase"]),
        .library(name: "PostgreSQLCommandStore", targets: ["PostgreSQLCommandStore"]),
        // For the app's package (App/) only: underscored, not API, no stability promised. The lock
        // the whole repository uses (ARCHITECTURE.md, "Locks"), and the tests' helpers.
        .library(name: "_Locking", targets: ["Locking"]),
        .library(name: "_TestSupport", targets: ["TestSupport"]),
        .library(name: "_FuzzSupport", targets: ["FuzzSupport"]),
        .executable(name: "fuzz-stored-commands", targets: ["fuzz-stored-commands"]),
        .executable(name: "fuzz-album-import", targets: ["fuzz-album-import"]),
        .executable(name: "fuzz-album-query", targets: ["fuzz-album-query"]),
    ],
    traits: [
        // Opt-in (not a default trait), so SwiftPM prunes the server packages for everyone else.
        .trait(
            name: "ServiceLifecycleIntegration",
            description: "Builds LaunchKitServiceLifecycle on swift-service-lifecycle and swift-log."
        ),
        // Opt-in too: without it nothing needs libpq's headers (Debian's libpq-dev).
        .trait(
            name: "PostgreSQL",
            description:
                "Builds PostgreSQLDatabase on libpq, the PostgreSQL client library, and PostgreSQLCommandStore on it."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.11.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
    ],
    targets: [
        // The repository's one lock (ARCHITECTURE.md, "Locks"): shared internals.
        .target(name: "Locking"),
        // The pattern: Command, Invoker, Invocation, Target-Action, CommandQueue, undo engine.
        .target(name: "CommandKit", dependencies: ["Locking"]),
        // Start-up orchestration: launch commands on a dependency graph.
        .target(name: "LaunchKit", dependencies: ["CommandKit", "Locking"]),
        // The thin SQLite layer: connections, statements, rows, values, transactions, migrations.
        // (CExtendedAttributes: the mark on each -wal naming its database, WriteAheadLogOwner.)
        .target(
            name: "SQLiteDatabase",
            dependencies: [
                "CSQLite", "Locking", .target(name: "CExtendedAttributes", condition: .when(platforms: [.linux])),
            ]),
        // Durable, transactional command history on SQLite.
        .target(name: "CommandStore", dependencies: ["CommandKit", "SQLiteDatabase"]),
        // The album domain: Album, LibraryAPI (the receiver), album commands.
        .target(
            name: "AlbumLibrary",
            dependencies: [
                "CommandKit", "SQLiteDatabase", "CommandStore", "Locking",
                // A library on a PostgreSQL server (LibrarySession.open(postgreSQL:)): only with the trait.
                .target(name: "PostgreSQLDatabase", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "PostgreSQLCommandStore", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // Crash-test helper for CommandStoreTests: runs a durable history until SIGKILLed, or verifies one.
        .executableTarget(
            name: "commandstore-crash-child", dependencies: ["SQLiteDatabase", "CommandStore", "CommandKit"]),
        .systemLibrary(name: "CExtendedAttributes"),

        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        // The thin PostgreSQL layer on libpq: connections, bound parameters, transactions that
        // retry serialization failures, LISTEN/NOTIFY. Empty unless the PostgreSQL trait is on.
        .target(
            name: "PostgreSQLDatabase",
            dependencies: [.target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"]))]),
        // The durable history on PostgreSQL: CommandStore's entries, registry and payloads over
        // PostgreSQLDatabase (CommandStore itself stays free of libpq). Empty without the trait.
        .target(name: "PostgreSQLCommandStore", dependencies: ["CommandKit", "CommandStore", "PostgreSQLDatabase"]),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // Fuzzing (Scripts/fuzz.sh builds these with -sanitize=fuzzer -D FUZZING; plain builds replay inputs).
        .target(name: "FuzzSupport", path: "Sources/fuzz-support"),
        .executableTarget(
            name: "fuzz-stored-commands", dependencies: ["SQLiteDatabase", "CommandStore", "CommandKit", "FuzzSupport"]),
        .executableTarget(name: "fuzz-album-import", dependencies: ["AlbumLibrary", "FuzzSupport"]),
        .executableTarget(
            name: "fuzz-album-query", dependencies: ["AlbumLibrary", "CommandStore", "SQLiteDatabase", "FuzzSupport"]),

        // Helpers every test target shares (a seeded generator, awaiting a child process's exit).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The engine's model-based tests, on public API only: run on UndoStack (CommandKitTests), on
        // a storage written outside CommandKit (PublicEngineTests), and the tree's on DurableHistory
        // (CommandStoreTests).
        .target(name: "UndoModelTesting", dependencies: ["CommandKit"], path: "Tests/UndoModelTesting"),
        .testTarget(
            name: "CommandKitTests", dependencies: ["CommandKit", "Locking", "TestSupport", "UndoModelTesting"]),
        // Sees CommandKit's public API only (no @testable): a HistoryStorage of its own passes the model test.
        .testTarget(name: "PublicEngineTests", dependencies: ["CommandKit", "UndoModelTesting"]),
        // One suite, run once per UndoHistory conformer (UndoStack, DurableHistory, and with the
        // PostgreSQL trait and a server, PostgreSQLHistory).
        .testTarget(
            name: "UndoHistoryTests",
            dependencies: [
                "CommandKit", "SQLiteDatabase", "CommandStore", "PostgreSQLCommandStore", "PostgreSQLDatabase",
                "TestSupport", .target(name: "PostgreSQLTestSupport", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // A tiny app on LaunchKit: the signal tests run it and send it SIGTERM/SIGINT.
        .executableTarget(name: "launchkit-fixture", dependencies: ["LaunchKit"]),
        .testTarget(
            name: "LaunchKitTests",
            dependencies: ["LaunchKit", "CommandKit", "Locking", "launchkit-fixture", "TestSupport"]),
        // LaunchKit and swift-service-lifecycle, both ways; empty unless the trait is enabled.
        .target(
            name: "LaunchKitServiceLifecycle",
            dependencies: ["LaunchKit"] + serviceLifecycleProducts(["ServiceLifecycle", "Logging"])
        ),
        // A launch inside a ServiceGroup: the group's signal tests run it (empty without the trait).
        .executableTarget(
            name: "servicegroup-fixture",
            dependencies: ["LaunchKit", "LaunchKitServiceLifecycle"]
                + serviceLifecycleProducts(["ServiceLifecycle", "UnixSignals", "Logging"])),
        .testTarget(
            name: "LaunchKitServiceLifecycleTests",
            dependencies: ["LaunchKitServiceLifecycle", "LaunchKit", "TestSupport", "servicegroup-fixture"]
                + serviceLifecycleProducts([
                    "ServiceLifecycle", "ServiceLifecycleTestKit", "Logging", "InMemoryLogging",
                ])
        ),
        .testTarget(
            name: "CommandStoreTests",
            dependencies: [
                "SQLiteDatabase", "CommandStore", "CommandKit", "Locking", "commandstore-crash-child", "TestSupport",
                "UndoModelTesting",
            ]
        ),
        .testTarget(
            name: "AlbumLibraryTests",
            dependencies: [
                "AlbumLibrary", "SQLiteDatabase", "CommandStore", "CommandKit", "TestSupport",
                .target(name: "PostgreSQLDatabase", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "PostgreSQLTestSupport", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // The PostgreSQL tests' shared fixtures: the server COMMANDKIT_POSTGRES_URL names and its CI
        // gate, a schema per test, the line receiver. Only behind the trait (its files are empty without it).
        .target(
            name: "PostgreSQLTestSupport", dependencies: ["CommandStore", "PostgreSQLDatabase"],
            path: "Tests/PostgreSQLTestSupport"),
        // Against a real server (Scripts/postgres.sh starts one; COMMANDKIT_POSTGRES_URL names it).
        .testTarget(
            name: "PostgreSQLDatabaseTests",
            dependencies: [
                "PostgreSQLDatabase", "TestSupport",
                .target(name: "PostgreSQLTestSupport", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // Crash-test helper for PostgreSQLCommandStoreTests: pushes and undoes until SIGKILLed.
        .executableTarget(
            name: "postgresql-crash-child",
            dependencies: ["PostgreSQLCommandStore", "PostgreSQLDatabase", "CommandStore"]),
        // The PostgreSQL history against a real server: clients sharing it, crashes, its tree.
        .testTarget(
            name: "PostgreSQLCommandStoreTests",
            dependencies: [
                "PostgreSQLCommandStore", "PostgreSQLDatabase", "CommandStore", "CommandKit", "TestSupport",
                "UndoModelTesting", "postgresql-crash-child",
                .target(name: "PostgreSQLTestSupport", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // The code the DocC articles show that is test code (Testing Code That Uses CommandKit).
        .testTarget(name: "DocumentationExamplesTests", dependencies: ["CommandKit"]),
    ],
    swiftLanguageModes: [.v6]
)

/// Products of swift-service-lifecycle / swift-log, used only when `ServiceLifecycleIntegration` is on.
func serviceLifecycleProducts(_ names: [String]) -> [Target.Dependency] {
    names.map { name in
        .product(
            name: name, package: name.hasSuffix("Logging") ? "swift-log" : "swift-service-lifecycle",
            condition: .when(traits: ["ServiceLifecycleIntegration"]))
    }
}

// One set of strict settings for every Swift target; each line says why.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    // `any P` spelled out: existential costs stay visible at the use site.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees only the modules it imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Imports are internal unless marked `public import`: no accidental API leaks.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    // Nonisolated async functions run on their caller's actor (Swift 6.2 semantics).
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    // Every public type states its Sendable choice.
    settings.append(.treatWarning("ExplicitSendable", as: .error))
    target.swiftSettings = settings
}
