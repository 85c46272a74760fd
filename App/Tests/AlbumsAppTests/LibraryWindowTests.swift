import AlbumLibrary
import Foundation
import TestSupport
import Testing

@testable import AlbumsApp

extension SplitMix64 {
    /// A number in `range`, drawn as this file always drew them (so recorded seeds replay).
    fileprivate mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// The terminal UI's controller reads only a window of a large library; these tests check that
/// what it shows is exactly what a controller that loaded every album would show.
@Suite struct LibraryWindowTests {
    /// A library file with the five defaults and `count` more albums, and its folder.
    private func makeSession(extra count: Int) throws -> (LibrarySession, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "library-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try LibrarySession.open(path: folder.appendingPathComponent("library.sqlite").path)
        try session.library.seedDefaultsIfNeeded()
        // Straight into the library, outside the history: no undo can take them away again.
        try session.library.append(
            contentsOf: (0..<count).map { Album(title: "Album \($0 + 1)", artist: "Artist \($0 % 7)") })
        return (session, folder)
    }

    /// The screen of a state that holds every album, the way the UI drew it before windows.
    private func referenceLines(_ window: LibraryWindow, all: [Album], currentIndex: Int, width: Int) -> [String] {
        let state = window.state
        let reference = BrowserState(
            albums: all, currentIndex: currentIndex, toolbar: state.toolbar, form: state.form, status: state.status
        )
        return BrowserScreen.plainText(BrowserScreen.render(reference, width: width, height: 30))
    }

    @Test func randomScrollsAndChangesShowWhatAFullReloadWould() throws {
        let seed: UInt64 = 0x7E1E_5C0F_F1CE
        var random = SplitMix64(seed: seed)
        let (session, folder) = try makeSession(extra: 395)
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = try LibraryWindow(session: session, currentAlbumID: nil)
        var expected = 0
        var added = 0
        var windowStarts: Set<Int> = []
        for step in 0..<80 {
            let count = try session.library.count()
            switch random.next(in: 0...9) {
            case 0...3:
                // Far enough to leave the loaded window now and then.
                let offset = random.next(in: -180...180)
                for _ in 0..<abs(offset) { window.handle(.character(offset < 0 ? "h" : "l")) }
                expected = min(max(expected + offset, 0), count - 1)
            case 4, 5:
                window.handle(.character("d"))
            case 6, 7:
                window.handle(.character("u"))
            case 8:
                window.handle(.character("r"))
            default:
                added += 1
                window.handle(.character("a"))
                for character in "New \(added)" { window.handle(.character(character)) }
                window.handle(.tab)
                for character in "Someone" { window.handle(.character(character)) }
                window.handle(.enter)
                expected += 1  // right after the album that was current
            }
            let all = try session.library.albums()
            expected = min(expected, all.count - 1)
            #expect(window.state.albumCount == all.count, "seed \(seed), step \(step)")
            #expect(window.state.clampedIndex == expected, "seed \(seed), step \(step)")
            #expect(window.state.currentAlbum == all[expected], "seed \(seed), step \(step)")
            #expect(window.state.albums.count <= 2 * LibraryWindow.margin + 1, "seed \(seed), step \(step)")
            // 120 columns show 5 boxes, 1,200 show 52: both must match the full screen.
            for width in [120, 1_200] {
                let shown = BrowserScreen.plainText(BrowserScreen.render(window.state, width: width, height: 30))
                let reference = referenceLines(window, all: all, currentIndex: expected, width: width)
                #expect(shown == reference, "seed \(seed), step \(step), width \(width)")
            }
            #expect(try session.library.currentAlbumID() == all[expected].id, "seed \(seed), step \(step)")
            windowStarts.insert(window.state.windowStart)
        }
        // The walk left the first window and came back to it.
        #expect(windowStarts.count > 3 && windowStarts.contains(0), "seed \(seed): \(windowStarts)")
    }

    @Test func startsAtTheRememberedAlbumDeepInALargeLibrary() throws {
        let (session, folder) = try makeSession(extra: 995)
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try session.library.albums()
        let window = try LibraryWindow(session: session, currentAlbumID: all[700].id)
        #expect(window.state.clampedIndex == 700)
        #expect(window.state.currentAlbum == all[700])
        #expect(window.state.windowStart == 700 - LibraryWindow.margin)
        #expect(window.state.albums == Array(all[600...800]))
        let screen = BrowserScreen.plainText(BrowserScreen.render(window.state, width: 120, height: 30)).joined(
            separator: "\n")
        #expect(screen.contains("701 of 1000"))
        #expect(screen.contains("albums · 1000 albums"))
    }

    @Test func anUnknownRememberedAlbumFallsBackToTheFirst() throws {
        let (session, folder) = try makeSession(extra: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = try LibraryWindow(session: session, currentAlbumID: UUID())
        #expect(window.state.clampedIndex == 0)
        #expect(window.state.currentAlbum?.title == "Best of Bowie")
        #expect(window.state.albums == (try session.library.albums()))
    }

    /// Issue 25: a read of the history's state rereads another process's commits itself, so the
    /// idle look's `refresh()` finds nothing new; the window still reloads the albums.
    @Test func anotherProcesssChangeSeenByAnyReadStillReloadsTheWindow() throws {
        let (session, folder) = try makeSession(extra: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = try LibraryWindow(session: session, currentAlbumID: nil)
        #expect(window.state.albumCount == 5)
        let other = try LibrarySession.open(path: session.path)
        defer { other.close() }
        _ = try other.delete(.position(5))

        _ = session.undoText  // any read of the history: it finds the commit and rereads
        #expect(try session.refresh() == false)
        window.followExternalChanges()

        #expect(window.state.albumCount == 4)
        #expect(window.state.albums == (try session.library.albums()))
    }

    @Test func deletingEveryAlbumLeavesAnEmptyScreenAndUndoRefillsIt() throws {
        let (session, folder) = try makeSession(extra: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = try LibraryWindow(session: session, currentAlbumID: nil)
        for _ in 0..<5 { window.handle(.character("d")) }
        #expect(window.state.albumCount == 0)
        #expect(window.state.currentAlbum == nil)
        #expect(window.state.toolbar.first { $0.key == "d" }?.isEnabled == false)
        window.handle(.character("d"))
        #expect(window.state.status == "No album to delete")
        window.handle(.character("u"))
        #expect(window.state.albumCount == 1)
        #expect(window.state.currentAlbum?.title == "American Pie")
    }
}
