// swift-tools-version: 6.2
//
// albums: the album-library application built on CommandKit (the package one folder up), with its
// benchmarks and its black-box and reliability tests. A package of its own so that what the app
// needs (swift-argument-parser, and swift-nio for `albums serve`) never reaches the resolution of
// a package that uses the libraries (ARCHITECTURE.md, "Two packages").

import PackageDescription

let package = Package(
    name: "albums",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "albums", targets: ["albums"]),
        .executable(name: "command-bench", targets: ["command-bench"]),
    ],
    traits: [
        // Opt-in: command-bench's postgres suite (PostgreSQLHistory, on libpq). Nothing else uses it.
        .trait(
            name: "PostgreSQL", description: "Builds command-bench's postgres suite on the libraries' PostgreSQL trait."
        )
    ],
    dependencies: [
        // By path, with its name: a path dependency's identity is its folder's name otherwise,
        // which is whatever the clone was called.
        // Its `PostgreSQL` trait only with the app's (command-bench's postgres suite: libpq).
        .package(
            name: "CommandKit", path: "..",
            traits: [.init(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"]))]),
        // The albums command line: parsing, generated help, shell completion scripts.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // `albums serve`: HTTP through swift-nio, its log through swift-log.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        // The albums application: CLI, terminal UI, launch sequence. A library so tests reach it.
        .target(
            name: "AlbumsApp",
            dependencies: [
                kit("AlbumLibrary"), kit("SQLiteDatabase"), kit("LaunchKit"), kit("CommandKit"),
                kit("CommandStore"), kit("_Locking"), "CNcursesw", "CMallocInfo", "AlbumsServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `albums serve`: the HTTP server, its JSON API and the page, over one LibrarySession.
        .target(
            name: "AlbumsServer",
            dependencies: [
                kit("AlbumLibrary"), kit("CommandKit"), kit("CommandStore"), kit("LaunchKit"), kit("_Locking"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Thin entry point: hands the process arguments to AlbumsApp.
        .executableTarget(name: "albums", dependencies: ["AlbumsApp"]),
        // Benchmarks (release build only): workloads of ../shared/bench/WORKLOAD.md and more.
        .executableTarget(
            name: "command-bench",
            dependencies: [
                kit("CommandKit"), kit("LaunchKit"), kit("SQLiteDatabase"), kit("CommandStore"),
                kit("AlbumLibrary"), "CMallocInfo",
                .product(
                    name: "PostgreSQLCommandStore", package: "CommandKit", condition: .when(traits: ["PostgreSQL"])),
                .product(
                    name: "PostgreSQLDatabase", package: "CommandKit", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // glibc's <malloc.h> (not in the Glibc module): mallinfo2() for the benchmarks' heap-bytes lines,
        // mallopt() for albums under an address-space limit (ResourceCheck).
        .systemLibrary(name: "CMallocInfo"),
        // No pkgConfig: ncursesw.pc's cflags carry -D_XOPEN_SOURCE=600, a flag SwiftPM
        // prohibits (it warns on every build). The shim includes <ncursesw/curses.h> itself.
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // The argument parser under libFuzzer (../Scripts/fuzz.sh); plain builds replay inputs.
        .executableTarget(name: "fuzz-cli-arguments", dependencies: ["AlbumsApp", kit("_FuzzSupport")]),

        // Reliability and security suite: fuzz replays, damaged files, permissions, SQL safety (RELIABILITY.md).
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                kit("SQLiteDatabase"), kit("CommandStore"), kit("CommandKit"), kit("AlbumLibrary"), "albums",
                "fuzz-cli-arguments", kit("fuzz-stored-commands"), kit("fuzz-album-import"), kit("fuzz-album-query"),
                kit("_TestSupport"),
            ]
        ),
        // `albums serve` run as a real process: its API and security rules over raw HTTP, its
        // page in headless Chromium through Selenium (BrowserTests/, skipped locally without it).
        .testTarget(
            name: "AlbumsServerTests",
            dependencies: [
                "albums", kit("_TestSupport"), kit("_Locking"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["browser_test.py"]
        ),
        // Black-box tests run the built `albums` binary (and drive its terminal UI through tmux).
        .testTarget(
            name: "AlbumsAppTests",
            dependencies: ["AlbumsApp", kit("AlbumLibrary"), kit("SQLiteDatabase"), "albums", kit("_TestSupport")]),
    ],
    swiftLanguageModes: [.v6]
)

/// A product of the CommandKit package (the libraries, one folder up).
func kit(_ product: String) -> Target.Dependency {
    .product(name: product, package: "CommandKit")
}

// The same strict settings as the libraries' (../Package.swift says why each is there).
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    settings.append(.treatWarning("ExplicitSendable", as: .error))
    target.swiftSettings = settings
}
