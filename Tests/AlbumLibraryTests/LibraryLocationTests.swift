import Foundation
import Testing

@testable import AlbumLibrary

/// `LibraryFile.defaultPath`: where the library is, and that a new one's folders are created only
/// below a folder that exists (issue 27: `HOME=/nonexistent/x` made a folder chain at `/`).
@Suite struct LibraryLocationTests {
    let existing = FileManager.default.temporaryDirectory.path

    @Test func theFirstOfDbAlbumsDbXdgAndHomeWins() throws {
        let environment = ["ALBUMS_DB": "\(existing)/env.sqlite", "XDG_DATA_HOME": existing, "HOME": existing]
        #expect(
            try LibraryFile.defaultPath(explicitPath: "\(existing)/x.sqlite", environment: environment)
                == "\(existing)/x.sqlite")
        #expect(try LibraryFile.defaultPath(environment: environment) == "\(existing)/env.sqlite")
        #expect(
            try LibraryFile.defaultPath(environment: ["XDG_DATA_HOME": existing, "HOME": "/nonexistent"])
                == "\(existing)/albums/library.sqlite")
        #expect(
            try LibraryFile.defaultPath(environment: ["HOME": existing, "ALBUMS_DB": "", "XDG_DATA_HOME": ""])
                == "\(existing)/.local/share/albums/library.sqlite")
    }

    @Test func aRelativeXdgDataHomeIsIgnored() throws {
        #expect(
            try LibraryFile.defaultPath(environment: ["XDG_DATA_HOME": "relative/data", "HOME": existing])
                == "\(existing)/.local/share/albums/library.sqlite")
    }

    @Test(arguments: [
        (["HOME": "/nonexistent/x"], "HOME=/nonexistent/x: /nonexistent/x is not an existing folder"),
        (["XDG_DATA_HOME": "/nonexistent/x/data"], "XDG_DATA_HOME=/nonexistent/x/data: /nonexistent/x is not"),
        (["ALBUMS_DB": "/nonexistent/x/lib.sqlite"], "ALBUMS_DB=/nonexistent/x/lib.sqlite: /nonexistent is not"),
    ])
    func aFolderThatMustExistAndDoesNotIsRefused(environment: [String: String], message: String) throws {
        let error = try #require(throws: LibraryError.self) { try LibraryFile.defaultPath(environment: environment) }
        #expect(error.code == .storage && error.message.contains(message), "\(error.message)")
        #expect(error.message.contains("albums creates no folder above it"))
    }

    @Test func aDbPathMayHaveItsOwnFolderCreatedButNotItsParent() throws {
        #expect(try LibraryFile.defaultPath(explicitPath: "\(existing)/new-folder/lib.sqlite", environment: [:]) != "")
        #expect(try LibraryFile.defaultPath(explicitPath: "lib.sqlite", environment: [:]) == "lib.sqlite")
        #expect(throws: LibraryError.self) {
            try LibraryFile.defaultPath(
                explicitPath: "\(existing)/no-such-\(UUID())/deeper/lib.sqlite", environment: [:])
        }
    }

    @Test(arguments: [
        ("lib.sqlite", "."), (".", "."), ("./lib", "."), ("a/b", "a"), ("a/b/", "a"), ("/lib", "/"), ("/", "/"),
        ("//a//b", "//a"), ("/a/b/c.sqlite", "/a/b"),
    ])
    func parentIsWhatDirnameSays(path: String, folder: String) {
        #expect(LibraryFile.parent(of: path) == folder)
    }
}
