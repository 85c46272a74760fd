import CommandKit

/// A ``HistoryStorage`` written outside CommandKit, against its public API only: entries in a
/// plain array, read and written back whole (the protocol's default `readEntry`/`modifyEntry`).
///
/// It keeps an absolute sequence number per entry (a base offset, as a database storage would) so
/// that records have stable identities, and counts what the engine asks of it.
final class ArrayHistoryStorage: HistoryStorage {
    typealias Failure = Never

    private var entries: [(sequence: Int, entry: CommandEntry)] = []
    private var nextSequence = 0
    private(set) var index = 0
    private(set) var cleanIndex: Int? = 0
    var count: Int { entries.count }

    func entry(at position: Int) -> CommandEntry {
        entries[position].entry
    }

    /// The sequence number of the entry at a position: its identity while it is kept.
    func sequence(at position: Int) -> Int {
        entries[position].sequence
    }

    func append(_ entry: CommandEntry) {
        entries.append((nextSequence, entry))
        nextSequence += 1
    }

    func replaceEntry(at position: Int, with entry: CommandEntry) {
        entries[position].entry = entry
    }

    func removeEntries(from position: Int) {
        entries.removeSubrange(position...)
    }

    func removeFirstEntries(_ k: Int) {
        entries.removeFirst(k)
    }

    func removeEntry(at position: Int) {
        entries.remove(at: position)
    }

    func setIndex(_ index: Int) {
        self.index = index
    }

    func setCleanIndex(_ cleanIndex: Int?) {
        self.cleanIndex = cleanIndex
    }
}
