/// What a file connection opened, recorded once it was open: the file's identity and its companions',
/// and what the file looked like the last time the cause of every change to it was known.
///
/// ``Database/fileStatus()`` compares the path with it; ``Database/close()`` uses it to close a
/// connection whose file is no longer at its path without touching what is there now.
struct OpenedFile {
    /// The database file the connection opened.
    let identity: FileIdentity
    /// The path the companions' names start with: the database's, links resolved (as SQLite names them).
    let companionBase: String
    /// The `-wal` file the connection uses, as it was at open (`nil` when there was none).
    let log: FileIdentity?
    /// The `-shm` file, likewise.
    let index: FileIdentity?
    /// The file's size and modification time when ``dataVersion`` was read.
    var stamp: FileSystem.Stamp?
    /// The connection's data version then: it changes with every commit, whoever made it.
    var dataVersion: UInt32
}

extension FileSystem.Stamp {
    /// Whether the two stamps show the same contents: the same size and modification time (the
    /// change time moves with a `chmod` or an extended attribute too, which leave the bytes alone).
    func hasSameContents(as other: FileSystem.Stamp?) -> Bool {
        guard let other else { return false }
        return size == other.size && modified == other.modified && modifiedNanoseconds == other.modifiedNanoseconds
    }
}
