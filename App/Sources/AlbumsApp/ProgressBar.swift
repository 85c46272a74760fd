/// A one-line progress bar on standard error, redrawn in place with a carriage return.
///
/// Only shown when standard error is a terminal and the work is large (see ``threshold``);
/// otherwise nothing is written, so logs and pipes stay clean.
final class ProgressBar {
    /// The smallest import that gets a bar.
    static let threshold = 2_000

    private let total: Int
    private let console: Console
    private var lastPercent = -1

    init(total: Int, console: Console) {
        self.total = max(total, 1)
        self.console = console
    }

    /// Redraws the bar when the whole percentage changed.
    func update(_ done: Int) {
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        console.writeError("\r" + Self.line(done: done, total: total, width: 30))
    }

    /// Clears the bar's line.
    func finish() {
        guard lastPercent >= 0 else { return }
        console.writeError("\r\u{1B}[2K")
    }

    /// The bar's text: `Importing [#######.......]  45% 45000/100000`.
    static func line(done: Int, total: Int, width: Int) -> String {
        let fraction = Double(min(done, total)) / Double(max(total, 1))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = String(Int(fraction * 100))
        return
            "Importing [\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)% \(min(done, total))/\(total)"
    }
}
