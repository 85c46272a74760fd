import AlbumLibrary
import Foundation

/// Everything the terminal UI shows, as plain values: the view model.
///
/// The controller (``LibraryWindow``) fills it from the library, the history and the toolbar's
/// controls; ``BrowserScreen`` turns it into text lines. Neither step touches the terminal, so
/// both are unit-tested.
struct BrowserState: Sendable, Hashable {
    /// One toolbar button as drawn: its key, its title, and whether it is enabled.
    struct ToolbarItem: Sendable, Hashable {
        /// The key that presses it ("u").
        var key: String
        /// The text shown ("Undo Delete “Best of Bowie”").
        var title: String
        /// Whether it reacts; a disabled item is drawn dimmed.
        var isEnabled: Bool

        /// Creates a toolbar item.
        ///
        /// - Parameters:
        ///   - key: The key that presses it.
        ///   - title: The text shown.
        ///   - isEnabled: Whether it reacts.
        init(key: String, title: String, isEnabled: Bool) {
            self.key = key
            self.title = title
            self.isEnabled = isEnabled
        }
    }

    /// The loaded albums, in library order: the whole library, or a window onto it that
    /// starts at ``windowStart`` and holds at least the albums around the current one.
    var albums: [Album]
    /// The library index (0-based) of the first album in ``albums``.
    var windowStart: Int
    /// The number of albums in the library (``albums`` may hold only some of them).
    var albumCount: Int
    /// The library index (0-based) of the current album; clamped when drawn.
    var currentIndex: Int
    /// The toolbar, left to right.
    var toolbar: [ToolbarItem]
    /// The add form, while it is open.
    var form: AddForm?
    /// A one-line message (what the last action did, or why it failed).
    var status: String?
    /// The `?` help's entries while it is open, `nil` when closed.
    var help: [BrowserPanels.HelpEntry]?
    /// The history panel, while it is open.
    var history: BrowserPanels.History?
    /// The search text being typed after `/`, while the prompt is open.
    var search: String?
    /// The move-to-position prompt `m` opens, while it is open.
    var movePrompt: MovePrompt?
    /// The ids of the albums marked with space: `d` and `e` act on all of them.
    var marked: Set<UUID> = []
    /// The y/n question a change to several albums asks first, while it waits for the answer.
    var confirmation: String?

    /// Creates a state.
    ///
    /// A state that holds the whole library passes just `albums`; a state that holds a window
    /// of a larger library also passes where the window starts and how many albums there are.
    ///
    /// ```swift
    /// // Albums 1,000 to 1,200 of 100,000, the current one being the 1,101st.
    /// let state = BrowserState(albums: window, windowStart: 1_000, albumCount: 100_000,
    ///                          currentIndex: 1_100, toolbar: items)
    /// ```
    ///
    /// - Parameters:
    ///   - albums: The albums, in library order: all of them, or a window.
    ///   - windowStart: The library index of `albums[0]` (0 when `albums` is the whole library).
    ///   - albumCount: The number of albums in the library; `nil` when `albums` runs to its end.
    ///   - currentIndex: The current album's library index (0-based).
    ///   - toolbar: The toolbar items.
    ///   - form: The add form, if open.
    ///   - status: A one-line message.
    init(
        albums: [Album],
        windowStart: Int = 0,
        albumCount: Int? = nil,
        currentIndex: Int,
        toolbar: [ToolbarItem],
        form: AddForm? = nil,
        status: String? = nil
    ) {
        self.albums = albums
        self.windowStart = windowStart
        self.albumCount = albumCount ?? windowStart + albums.count
        self.currentIndex = currentIndex
        self.toolbar = toolbar
        self.form = form
        self.status = status
    }

    /// The current album, if the library is not empty (and the window holds it).
    var currentAlbum: Album? {
        album(at: clampedIndex)
    }

    /// ``currentIndex`` limited to the albums there are.
    var clampedIndex: Int {
        albumCount <= 0 ? 0 : min(max(currentIndex, 0), albumCount - 1)
    }

    /// The album at a library index, if the window holds it.
    ///
    /// - Parameter index: A library index (0-based).
    /// - Returns: The album, or `nil` when `index` is outside the loaded window.
    func album(at index: Int) -> Album? {
        let offset = index - windowStart
        return albums.indices.contains(offset) ? albums[offset] : nil
    }
}
