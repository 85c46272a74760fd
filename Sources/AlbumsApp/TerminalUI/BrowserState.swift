public import AlbumLibrary

/// Everything the terminal UI shows, as plain values: the view model.
///
/// The controller (``LibraryWindow``) fills it from the library, the history and the toolbar's
/// controls; ``BrowserScreen`` turns it into text lines. Neither step touches the terminal, so
/// both are unit-tested.
public struct BrowserState: Sendable, Hashable {
    /// One toolbar button as drawn: its key, its title, and whether it is enabled.
    public struct ToolbarItem: Sendable, Hashable {
        /// The key that presses it ("u").
        public var key: String
        /// The text shown ("Undo Delete “Best of Bowie”").
        public var title: String
        /// Whether it reacts; a disabled item is drawn dimmed.
        public var isEnabled: Bool

        /// Creates a toolbar item.
        ///
        /// - Parameters:
        ///   - key: The key that presses it.
        ///   - title: The text shown.
        ///   - isEnabled: Whether it reacts.
        public init(key: String, title: String, isEnabled: Bool) {
            self.key = key
            self.title = title
            self.isEnabled = isEnabled
        }
    }

    /// The albums, in library order.
    public var albums: [Album]
    /// The index of the current album in ``albums`` (0-based); clamped when drawn.
    public var currentIndex: Int
    /// The toolbar, left to right.
    public var toolbar: [ToolbarItem]
    /// The add form, while it is open.
    public var form: AddForm?
    /// A one-line message (what the last action did, or why it failed).
    public var status: String?

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - albums: The albums, in library order.
    ///   - currentIndex: The current album's index.
    ///   - toolbar: The toolbar items.
    ///   - form: The add form, if open.
    ///   - status: A one-line message.
    public init(
        albums: [Album],
        currentIndex: Int,
        toolbar: [ToolbarItem],
        form: AddForm? = nil,
        status: String? = nil
    ) {
        self.albums = albums
        self.currentIndex = currentIndex
        self.toolbar = toolbar
        self.form = form
        self.status = status
    }

    /// The current album, if the library is not empty.
    public var currentAlbum: Album? {
        albums.isEmpty ? nil : albums[clampedIndex]
    }

    /// ``currentIndex`` limited to the albums there are.
    public var clampedIndex: Int {
        albums.isEmpty ? 0 : min(max(currentIndex, 0), albums.count - 1)
    }
}
