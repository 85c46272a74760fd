// swift-tools-version: 6.2
//
// CommandKit: the Command design pattern as a production tool, and `albums`, the
// album-library application built on it. The libraries use only the Swift toolchain and two
// system C libraries (SQLite3, ncursesw). LaunchKitServiceLifecycle, behind the opt-in
// `ServiceLifecycleIntegration` trait, is the only product on outside packages: a package that
// does not enable the trait never resolves or builds them (ARCHITECTURE.md). The albums app uses
// swift-argument-parser for its command line.

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
        .executable(name: "albums", targets: ["albums"]),
        .executable(name: "command-bench", targets: ["command-bench"]),
        .library(name: "LaunchKitServiceLifecycle", targets: ["LaunchKitServiceLifecycle"]),
    ],
    traits: [
        // Opt-in (not a default trait), so SwiftPM prunes the server packages for everyone else.
        .trait(
            name: "ServiceLifecycleIntegration",
            description: "Builds LaunchKitServiceLifecycle on swift-service-lifecycle and swift-log."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.11.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        // The albums command line: parsing, generated help, shell completion scripts. The app only.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // The package's one lock (ARCHITECTURE.md, "Locks"): shared internals, no product.
        .target(name: "Locking"),
        // The pattern: Command, Invoker, Invocation, Target-Action, CommandQueue, undo engine.
        .target(name: "CommandKit", dependencies: ["Locking"]),
        // Start-up orchestration: launch commands on a dependency graph.
        .target(name: "LaunchKit", dependencies: ["CommandKit", "Locking"]),
        // The thin SQLite layer: connections, statements, rows, values, transactions, migrations.
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
        // Durable, transactional command history on SQLite.
        .target(name: "CommandStore", dependencies: ["CommandKit", "SQLiteDatabase"]),
        // The album domain: Album, LibraryAPI (the receiver), album commands.
        .target(
            name: "AlbumLibrary",
            dependencies: [
                "CommandKit", "SQLiteDatabase", "CommandStore", "Locking",
                .target(name: "CExtendedAttributes", condition: .when(platforms: [.linux])),
            ]),
        // The albums application: CLI, terminal UI, launch sequence. A library so tests reach it.
        .target(
            name: "AlbumsApp",
            dependencies: [
                "AlbumLibrary", "SQLiteDatabase", "LaunchKit", "CommandKit", "Locking", "CNcursesw", "CMallocInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Thin entry point: hands the process arguments to AlbumsApp.
        .executableTarget(name: "albums", dependencies: ["AlbumsApp"]),
        // Benchmarks (release build only): workloads of ../shared/bench/WORKLOAD.md and more.
        .executableTarget(
            name: "command-bench",
            dependencies: [
                "CommandKit", "LaunchKit", "SQLiteDatabase", "CommandStore", "AlbumLibrary", "CSQLite", "CMallocInfo",
                .target(name: "CExtendedAttributes", condition: .when(platforms: [.linux])),
            ]
        ),
        // Crash-test helper for CommandStoreTests: runs a durable history until SIGKILLed, or verifies one.
        .executableTarget(
            name: "commandstore-crash-child", dependencies: ["SQLiteDatabase", "CommandStore", "CommandKit"]),
        // glibc's <malloc.h> (not in the Glibc module): mallinfo2() for the benchmarks' heap-bytes lines,
        // mallopt() for albums under an address-space limit (ResourceCheck).
        .systemLibrary(name: "CMallocInfo"),
        .systemLibrary(name: "CExtendedAttributes"),

        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        // No pkgConfig: ncursesw.pc's cflags carry -D_XOPEN_SOURCE=600, a flag SwiftPM
        // prohibits (it warns on every build). The shim includes <ncursesw/curses.h> itself.
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),

        // Fuzzing (Scripts/fuzz.sh builds these with -sanitize=fuzzer -D FUZZING; plain builds replay inputs).
        .target(name: "FuzzSupport", path: "Sources/fuzz-support"),
        .executableTarget(
            name: "fuzz-stored-commands", dependencies: ["SQLiteDatabase", "CommandStore", "CommandKit", "FuzzSupport"]),
        .executableTarget(name: "fuzz-cli-arguments", dependencies: ["AlbumsApp", "FuzzSupport"]),
        .executableTarget(name: "fuzz-album-import", dependencies: ["AlbumLibrary", "FuzzSupport"]),

        // Helpers every test target shares (a seeded generator, awaiting a child process's exit).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The engine's model-based test, on public API only: run on UndoStack (CommandKitTests) and
        // on a storage written outside CommandKit (PublicEngineTests).
        .target(name: "UndoModelTesting", dependencies: ["CommandKit"], path: "Tests/UndoModelTesting"),
        .testTarget(
            name: "CommandKitTests", dependencies: ["CommandKit", "Locking", "TestSupport", "UndoModelTesting"]),
        // Sees CommandKit's public API only (no @testable): a HistoryStorage of its own passes the model test.
        .testTarget(name: "PublicEngineTests", dependencies: ["CommandKit", "UndoModelTesting"]),
        // One suite, run once per UndoHistory conformer (UndoStack, DurableHistory).
        .testTarget(name: "UndoHistoryTests", dependencies: ["CommandKit", "SQLiteDatabase", "CommandStore"]),
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
        .testTarget(
            name: "LaunchKitServiceLifecycleTests",
            dependencies: ["LaunchKitServiceLifecycle", "LaunchKit"]
                + serviceLifecycleProducts([
                    "ServiceLifecycle", "ServiceLifecycleTestKit", "Logging", "InMemoryLogging",
                ])
        ),
        .testTarget(
            name: "CommandStoreTests",
            dependencies: [
                "SQLiteDatabase", "CommandStore", "CommandKit", "Locking", "commandstore-crash-child", "TestSupport",
            ]
        ),
        .testTarget(
            name: "AlbumLibraryTests",
            dependencies: ["AlbumLibrary", "SQLiteDatabase", "CommandStore", "CommandKit", "TestSupport"]),
        // Reliability and security suite: fuzz replays, damaged files, permissions, SQL safety (RELIABILITY.md).
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "SQLiteDatabase", "CommandStore", "CommandKit", "AlbumLibrary", "albums",
                "fuzz-stored-commands", "fuzz-cli-arguments", "fuzz-album-import", "TestSupport",
            ]
        ),
        // Black-box tests run the built `albums` binary (and drive its terminal UI through tmux).
        .testTarget(
            name: "AlbumsAppTests",
            dependencies: ["AlbumsApp", "AlbumLibrary", "SQLiteDatabase", "albums", "TestSupport"]),
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
