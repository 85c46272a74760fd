import AlbumLibrary
import Foundation

extension AlbumFormatter {
    /// `albums stats` as text: one figure a line.
    static func statsText(_ statistics: LibraryStatistics) -> String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var years = "none"
        if let first = statistics.firstYear, let last = statistics.lastYear {
            years = first == last ? "\(first)" : "\(first)–\(last)"
        }
        if statistics.albumsWithoutYear > 0 {
            years += " (\(plural(statistics.albumsWithoutYear, "album")) without a year)"
        }
        return """
            Albums:   \(statistics.albums)
            Artists:  \(statistics.artists)
            Genres:   \(statistics.genres)
            Years:    \(years)
            History:  \(plural(statistics.historySteps, "step"))
            On disk:  \(byteCount(statistics.bytesOnDisk))

            """
    }

    /// Bytes as a person reads them: 812 bytes, 48.0 KiB, 3.2 MiB.
    static func byteCount(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
