import AlbumLibrary
import Testing

@testable import AlbumsApp

@Suite struct BrowserScreenTests {
    private let toolbar = [
        BrowserState.ToolbarItem(key: "u", title: "Undo", isEnabled: false),
        BrowserState.ToolbarItem(key: "r", title: "Redo", isEnabled: false),
        BrowserState.ToolbarItem(key: "d", title: "Delete", isEnabled: true),
        BrowserState.ToolbarItem(key: "a", title: "Add", isEnabled: true),
        BrowserState.ToolbarItem(key: "q", title: "Quit", isEnabled: true),
    ]

    private func render(_ state: BrowserState, width: Int = 120, height: Int = 30) -> [String] {
        BrowserScreen.plainText(BrowserScreen.render(state, width: width, height: height))
    }

    @Test func showsAlbumsDetailsAndToolbar() {
        let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        let text = render(state).joined(separator: "\n")
        for album in Album.defaults() {
            #expect(text.contains(album.title))
            #expect(text.contains(album.artist))
        }
        #expect(text.contains("Artist  David Bowie"))
        #expect(text.contains("Album   Best of Bowie"))
        #expect(text.contains("Genre   Pop"))
        #expect(text.contains("Year    1992"))
        #expect(text.contains("[u] Undo"))
        #expect(text.contains("[q] Quit"))
        #expect(text.contains("1 of 5"))
        // The current album has the heavy border.
        #expect(text.contains("┃Best of Bowie"))
        #expect(text.contains("│It's My Life"))
    }

    @Test func disabledButtonsAreDimmedAndEnabledOnesAreNot() {
        let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        let lines = BrowserScreen.render(state, width: 120, height: 30)
        let spans = lines.flatMap { $0 }
        #expect(spans.first { $0.text == "Undo" }?.style == .dim)
        #expect(spans.first { $0.text == "Delete" }?.style == .normal)
    }

    @Test(arguments: [(20, 8), (40, 12), (80, 24), (200, 60), (1, 1)])
    func everyLineFitsTheTerminal(width: Int, height: Int) {
        var albums = Album.defaults()
        albums[0].title = String(repeating: "東京", count: 40)
        let state = BrowserState(
            albums: albums, currentIndex: 3, toolbar: toolbar, status: String(repeating: "x", count: 300))
        let lines = BrowserScreen.render(state, width: width, height: height)
        #expect(lines.count == height)
        for line in lines {
            let text = line.map(\.text).joined()
            let columns = text.unicodeScalars.reduce(0) { $0 + (($1.value >= 0x2E80 && $1.value <= 0xA4CF) ? 2 : 1) }
            #expect(columns <= width, "\(text)")
        }
    }

    @Test func controlCharactersAreNeverDrawn() {
        var albums = Album.defaults()
        albums[0].title = "Evil\u{1B}[2J\u{07}\nTitle"
        albums[0].artist = "\u{9B}31mArtist"
        let state = BrowserState(albums: albums, currentIndex: 0, toolbar: toolbar, status: "bad\u{1B}status")
        for line in BrowserScreen.plainText(BrowserScreen.render(state, width: 120, height: 30)) {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
        }
    }

    @Test func scrollerKeepsTheCurrentAlbumVisible() {
        let albums = (1...40).map { Album(title: "Album \($0)", artist: "Artist") }
        for index in [0, 10, 39] {
            let state = BrowserState(albums: albums, currentIndex: index, toolbar: toolbar)
            let text = render(state, width: 80).joined(separator: "\n")
            #expect(text.contains("┃Album \(index + 1) "), "index \(index)")
            #expect(text.contains("\(index + 1) of 40"))
        }
    }

    @Test func aNarrowToolbarKeepsEveryKey() {
        var items = toolbar
        items[0] = BrowserState.ToolbarItem(
            key: "u", title: "Undo Delete “A Very Long Album Title Indeed”", isEnabled: true)
        let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: items)
        let wide = render(state, width: 120).joined(separator: "\n")
        #expect(wide.contains("[u] Undo Delete “A Very Long Album Title Indeed”"))
        let narrow = render(state, width: 50).joined(separator: "\n")
        #expect(narrow.contains("[u] Undo [r] Redo [d] Delete [a] Add [q] Quit"))
    }

    @Test func emptyLibraryInvitesAdding() {
        let state = BrowserState(albums: [], currentIndex: 0, toolbar: toolbar)
        #expect(render(state).joined().contains("No albums. Press a to add one."))
    }

    @Test func theAddFormShowsFieldsAndProblems() {
        var form = AddForm()
        for character in "Blue Train" { form.type(character) }
        form.focusNext()
        form.focusNext()
        form.focusNext()
        for character in "19x57" { form.type(character) }
        // The year shows what was typed, the letter explained.
        #expect(form.value(.year) == "19x57")
        let typed = render(BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar, form: form))
        #expect(typed.contains { $0.contains("> Year:   19x57_") })
        #expect(typed.contains { $0.contains("Year takes digits only (1 to 9999)") })
        #expect(throws: LibraryError.self) { try form.album() }
        form.problem = "artist must not be empty"
        let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar, form: form)
        let text = render(state).joined(separator: "\n")
        #expect(text.contains("Title:  Blue Train"))
        #expect(text.contains("> Year:   19x57_"))
        #expect(text.contains("artist must not be empty"))
    }

    @Test func theAddFormBuildsAValidAlbum() throws {
        var form = AddForm()
        for character in "Blue Train" { form.type(character) }
        form.focusNext()
        for character in "John Coltrane" { form.type(character) }
        form.focusPrevious()
        form.deleteBackward()
        form.type("n")
        form.focusNext()
        form.focusNext()
        form.focusNext()
        for character in "1957" { form.type(character) }
        let album = try form.album()
        #expect(album.title == "Blue Train")
        #expect(album.artist == "John Coltrane")
        #expect(album.year == 1957)
    }

    @Test func aWindowOfALargeLibraryShowsLibraryPositions() {
        // Albums 1,001 to 1,201 of 100,000 loaded; the 1,101st is current.
        let window = (1_001...1_201).map { Album(title: "Album \($0)", artist: "Artist \($0)") }
        let state = BrowserState(
            albums: window, windowStart: 1_000, albumCount: 100_000, currentIndex: 1_100, toolbar: toolbar
        )
        #expect(state.currentAlbum?.title == "Album 1101")
        #expect(state.album(at: 999) == nil && state.album(at: 1_201) == nil)
        let text = render(state).joined(separator: "\n")
        #expect(text.contains("albums · 100000 albums"))
        #expect(text.contains("◀ 1101 of 100000 ▶"))
        #expect(text.contains("┃Album 1101"))
        #expect(text.contains("│Album 1099") && text.contains("│Album 1103"))
        #expect(text.contains("Album   Album 1101"))
    }

    @Test func aBoxOutsideTheWindowIsDrawnEmptyAndTheCurrentIndexIsClamped() {
        let window = (1...3).map { Album(title: "Album \($0)", artist: "Artist") }
        // Three albums loaded of ten; the current index is past the end.
        let state = BrowserState(albums: window, albumCount: 10, currentIndex: 42, toolbar: toolbar)
        #expect(state.clampedIndex == 9)
        #expect(state.currentAlbum == nil)
        let text = render(state).joined(separator: "\n")
        #expect(text.contains("10 of 10"))
        #expect(!text.contains("Album 3"))
        #expect(!text.contains("Artist  "))  // no details without the album
    }
}
