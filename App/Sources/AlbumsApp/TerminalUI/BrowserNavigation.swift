/// Where the jump and page keys move the current album: pure arithmetic on indexes, so the
/// controller only applies the result (and reloads its window around it).
///
/// Home and `g` go to the first album, End and `G` to the last; Page Up and Page Down move by
/// the number of albums the scroller shows at a width (at least one).
enum BrowserNavigation: Sendable {
    /// The library index a key moves to, or `nil` when the key is not a navigation key.
    ///
    /// - Parameters:
    ///   - key: The key pressed.
    ///   - current: The current album's library index (0-based).
    ///   - count: The number of albums.
    ///   - width: The terminal's width, which sets a page's size.
    /// - Returns: The new index, within `0..<count` (0 for an empty library).
    static func index(after key: KeyInput, current: Int, count: Int, width: Int) -> Int? {
        let page = pageSize(width: width)
        let target: Int
        switch key {
        case .home, .character("g"): target = 0
        case .end, .character("G"): target = count - 1
        case .pageUp: target = current - page
        case .pageDown: target = current + page
        case .left, .character("h"): target = current - 1
        case .right, .character("l"): target = current + 1
        default: return nil
        }
        return max(0, min(target, count - 1))
    }

    /// The albums the scroller shows side by side at `width` columns.
    static func pageSize(width: Int) -> Int {
        max(1, (width - 2) / (BrowserScreen.boxWidth + 1))
    }
}
