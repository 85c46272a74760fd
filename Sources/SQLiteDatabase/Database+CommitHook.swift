internal import CSQLite

extension Database {
    /// Calls `hook` at each commit of this connection, while it still holds the write lock and
    /// before the transaction becomes visible to other connections.
    ///
    /// For instrumentation and tests: a test can pause a process inside its write transaction (the
    /// hook waits for a signal from the test), which makes a race between processes deterministic.
    /// The hook must not use the database. Returning `false` turns the commit into a rollback:
    /// the `COMMIT` then fails with `SQLITE_CONSTRAINT_COMMITHOOK`.
    ///
    /// The connection's own check that its file is still at its path (see ``fileStatus()``) runs
    /// after `hook`, and is not replaced by it.
    ///
    /// - Parameter hook: The hook, replacing any earlier one; `nil` removes it.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/commit_hook.html>
    public func setCommitHook(_ hook: (() -> Bool)?) {
        connection.setCommitHook(hook)
    }
}

/// A commit hook kept alive by its ``Connection`` while SQLite holds a pointer to it.
final class CommitHookBox {
    let hook: () -> Bool

    init(_ hook: @escaping () -> Bool) {
        self.hook = hook
    }
}

extension Connection {
    func setCommitHook(_ hook: (() -> Bool)?) {
        userCommitHook = hook
        installCommitHook()
    }

    func setFileCheck(_ check: (() -> Bool)?) {
        fileCheck = check
        installCommitHook()
    }

    /// Gives SQLite one hook: the user's, then the file check, right before the commit is written.
    private func installCommitHook() {
        guard let handle else { return }
        guard userCommitHook != nil || fileCheck != nil else {
            sqlite3_commit_hook(handle, nil, nil)
            commitHook = nil
            return
        }
        let (user, file) = (userCommitHook, fileCheck)
        let box = CommitHookBox { [weak self] in
            guard user?() ?? true else { return false }
            guard file?() ?? true else {
                self?.fileCheckRefusedCommit = true
                return false
            }
            return true
        }
        sqlite3_commit_hook(
            handle,
            { context in
                // Non-zero asks SQLite to roll back.
                Unmanaged<CommitHookBox>.fromOpaque(context!).takeUnretainedValue().hook() ? 0 : 1
            },
            Unmanaged.passUnretained(box).toOpaque()
        )
        // Replaced after SQLite has the new pointer: the old box is no longer reachable from it.
        commitHook = box
    }
}
