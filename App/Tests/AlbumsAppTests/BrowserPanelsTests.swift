import AlbumLibrary
import Foundation
import Testing

@testable import AlbumsApp

/// The terminal UI's new pure parts: navigation keys, the help and history panels, the search
/// prompt, the form's cover and year, and layouts that keep the footer on small screens.
@Suite struct BrowserPanelsTests {
    private let toolbar = [
        BrowserState.ToolbarItem(key: "u", title: "Undo Delete “Best of Bowie”", isEnabled: true),
        BrowserState.ToolbarItem(key: "r", title: "Redo", isEnabled: false),
        BrowserState.ToolbarItem(key: "d", title: "Delete", isEnabled: true),
        BrowserState.ToolbarItem(key: "a", title: "Add", isEnabled: true),
        BrowserState.ToolbarItem(key: "q", title: "Quit", isEnabled: true),
    ]

    private func render(_ state: BrowserState, width: Int, height: Int) -> [String] {
        BrowserScreen.plainText(BrowserScreen.render(state, width: width, height: height))
    }

    @Test func navigationKeysJumpAndPage() {
        let page = BrowserNavigation.pageSize(width: 120)
        #expect(page == 5)
        #expect(BrowserNavigation.index(after: .home, current: 500, count: 2000, width: 120) == 0)
        #expect(BrowserNavigation.index(after: .character("g"), current: 500, count: 2000, width: 120) == 0)
        #expect(BrowserNavigation.index(after: .end, current: 5, count: 2000, width: 120) == 1999)
        #expect(BrowserNavigation.index(after: .character("G"), current: 5, count: 2000, width: 120) == 1999)
        #expect(BrowserNavigation.index(after: .pageDown, current: 5, count: 2000, width: 120) == 10)
        #expect(BrowserNavigation.index(after: .pageUp, current: 3, count: 2000, width: 120) == 0)
        #expect(BrowserNavigation.index(after: .pageDown, current: 1998, count: 2000, width: 60) == 1999)
        #expect(BrowserNavigation.index(after: .end, current: 0, count: 0, width: 60) == 0)
        #expect(BrowserNavigation.index(after: .character("u"), current: 0, count: 5, width: 60) == nil)
    }

    @Test func at60By20TheToolbarAndHintsStay() {
        for form in [nil, AddForm()] {
            let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar, form: form)
            let lines = render(state, width: 60, height: 20)
            #expect(lines.count == 20)
            #expect(lines[17].contains("[u] Undo") && lines[17].contains("[q] Quit"), "\(lines)")
            #expect(lines[18].contains("? help") || lines[18].contains("Esc cancel"), "\(lines[18])")
            #expect(!lines[18].hasSuffix("…"))
            for line in lines { #expect(line.count <= 60, "\(line)") }
        }
    }

    @Test(arguments: [3, 5, 8, 12])
    func belowThatTheBodyGivesWayNotTheFooter(height: Int) {
        let state = BrowserState(
            albums: Album.defaults(), currentIndex: 0, toolbar: toolbar, status: "Deleted “Best of Bowie”")
        let lines = render(state, width: 60, height: height)
        #expect(lines.count == height)
        #expect(lines[height - 3].contains("[u]"))
        #expect(lines[height - 1].contains("Deleted"))
    }

    @Test func theHelpOverlayListsTheKeysItIsGiven() {
        var state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        state.help = [.init("Home g", "first album"), .init("/", "search")]
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        #expect(text.contains("Keys"))
        #expect(text.contains("Home g  first album"))
        #expect(text.contains("/       search"))
        #expect(text.contains("Any key closes the help"))
        #expect(!text.contains("Artist  David Bowie"))
    }

    @Test func theHistoryPanelMarksTheCurrentStepAndTheCursor() {
        typealias Row = BrowserPanels.History.Row
        var history = BrowserPanels.History(
            rows: [
                Row(id: 0, text: "Start", depth: 0, startsBranch: false, isOnPath: true, isDone: true),
                Row(id: 1, text: "Delete “A”", depth: 0, startsBranch: false, isOnPath: true, isDone: true),
                Row(id: 4, text: "Edit “D”", depth: 1, startsBranch: true, isOnPath: false, isDone: false),
                Row(id: 2, text: "Add “B”", depth: 0, startsBranch: false, isOnPath: true, isDone: true),
                Row(id: 3, text: "Move “C”", depth: 0, startsBranch: false, isOnPath: true, isDone: false),
            ], current: 3)
        history.moveSelection(by: -5)
        #expect(history.selected == 0)
        history.moveSelection(by: 9)
        #expect(history.selected == 4)
        var state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        state.history = history
        let lines = BrowserScreen.render(state, width: 80, height: 24)
        let text = BrowserScreen.plainText(lines)
        #expect(text.contains("   > 2  Add “B”"))
        #expect(text.contains("     3  Move “C”  (undone)"))
        #expect(text.contains("     └ 4  Edit “D”") && !text.contains("Edit “D”  (undone)"), "a branch, not undone")
        #expect(lines.flatMap { $0 }.first { $0.text.contains("Move “C”") }?.style == .highlight)
        #expect(text.contains(" ↑/↓ choose a step · Enter jump to it · Esc close"))
    }

    @Test func theSearchPromptTakesTheStatusLineAndTheSearchResultFollowsIt() {
        var state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar)
        state.search = "bow"
        #expect(render(state, width: 80, height: 24).last == " /bow_")
        state.status = "No album matches “bow”"
        #expect(render(state, width: 80, height: 24).last == " /bow_   No album matches “bow”")
    }

    @Test func theFormTakesACoverAndExplainsARefusedYearLetter() throws {
        var form = AddForm()
        for character in "Blue Train" { form.type(character) }
        form.focusNext()
        for character in "John Coltrane" { form.type(character) }
        form.focusNext()
        form.focusNext()
        for character in "1957" { form.type(character) }
        form.type("x")
        // The letter stays in the field, explained until it is gone, and Enter refuses it.
        #expect(form.value(.year) == "1957x")
        #expect(form.problem == "Year takes digits only (1 to 9999)")
        form.type("8")
        #expect(form.problem == "Year takes digits only (1 to 9999)")
        #expect(throws: LibraryError.self) { try form.album() }
        form.deleteBackward()
        form.deleteBackward()
        #expect(form.value(.year) == "1957" && form.problem == nil)
        form.type("8")
        #expect(form.problem == "Year has at most four digits")
        #expect(throws: LibraryError.self) { try form.album() }
        form.deleteBackward()
        #expect(form.problem == nil)
        form.focusNext()
        #expect(form.focus == .cover)
        for character in "cover.jpg" { form.type(character) }
        #expect(throws: LibraryError.self) { try form.album() }
        while !form.value(.cover).isEmpty { form.deleteBackward() }
        for character in "https://example.com/blue.jpg" { form.type(character) }
        let album = try form.album()
        #expect(album.coverURL?.absoluteString == "https://example.com/blue.jpg")
        #expect(album.year == 1957)
        let state = BrowserState(albums: Album.defaults(), currentIndex: 0, toolbar: toolbar, form: form)
        #expect(render(state, width: 80, height: 24).contains { $0.contains("Cover:  https://example.com/blue.jpg_") })
    }

    @Test func escapeSequencesCursesLeftUndecodedMapToKeys() {
        #expect(KeySequence.key(after: "[1~") == .home)
        #expect(KeySequence.key(after: "OH") == .home)
        #expect(KeySequence.key(after: "[4~") == .end)
        #expect(KeySequence.key(after: "[F") == .end)
        #expect(KeySequence.key(after: "[5~") == .pageUp)
        #expect(KeySequence.key(after: "[6~") == .pageDown)
        #expect(KeySequence.key(after: "[2~") == nil)
        #expect(KeySequence.isIncomplete("") && KeySequence.isIncomplete("[") && KeySequence.isIncomplete("[1"))
        #expect(!KeySequence.isIncomplete("[1~") && !KeySequence.isIncomplete("OH") && !KeySequence.isIncomplete("x"))
    }

    @Test func anEditFormChangesOnlyTheFieldsThatDifferAndRemovesAnEmptiedYearOrCover() throws {
        var album = Album.defaults()[0]
        album.coverURL = URL(string: "https://example.com/bowie.jpg")
        var form = AddForm(editing: album)
        #expect(form.value(.title) == "Best of Bowie" && form.value(.year) == "1992")
        #expect(try form.changes().isEmpty)
        for _ in 0..<5 { form.deleteBackward() }
        for character in "Ziggy" { form.type(character) }
        #expect(try form.changes() == AlbumChanges(title: "Best of Ziggy"))
        form.focus = .year
        for _ in 0..<4 { form.deleteBackward() }
        #expect(try form.changes() == AlbumChanges(title: "Best of Ziggy", removesYear: true))
        for character in "1993" { form.type(character) }
        #expect(try form.changes() == AlbumChanges(title: "Best of Ziggy", year: 1993))
        form.focus = .cover
        form.values[.cover] = "  "
        #expect(try form.changes() == AlbumChanges(title: "Best of Ziggy", year: 1993, removesCoverURL: true))
        // The title and artist stay required.
        form.values[.artist] = ""
        #expect(throws: LibraryError.self) { try form.changes() }
        #expect(throws: LibraryError.self) { try AddForm().changes() }
        // Emptying a year the album never had changes nothing.
        var yearless = AddForm(editing: Album(title: "T", artist: "A"))
        yearless.values[.year] = ""
        #expect(try yearless.changes().isEmpty)
    }
}
