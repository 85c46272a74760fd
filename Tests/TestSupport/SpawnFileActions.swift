// Public: `posix_spawn_file_actions_t` in the API (Foundation re-exports the C library).
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Adds to `actions` the close, in the child, of every descriptor above standard error.
///
/// A test process spawns children from several threads at once, and `posix_spawn` hands a child
/// every descriptor not marked close-on-exec. Foundation's `Process` learns that its child exited
/// when a socket the child holds reaches end of file, and that socket is not close-on-exec: a
/// long-lived child spawned meanwhile (the tmux server, which outlives its client) would keep
/// it open, so another test's `Process` never seemed to end (a damaged-library run "hung" for
/// 300 s after it printed its result and exited 0, while a tmux test ran beside it).
///
/// Uses glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later, looked up at run time
/// because Swift's Glibc module does not import it); otherwise closes every descriptor open now,
/// with a margin for those opened before the spawn. Adds nothing on other C libraries (there, a
/// close of a descriptor that is not open fails the spawn).
public func closeInheritedDescriptors(in actions: inout posix_spawn_file_actions_t) {
    #if canImport(Glibc)
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        if closeFrom(&actions, 3) == 0 { return }
    }
    // A close of a descriptor that is not open is not an error for glibc's posix_spawn.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd"))?.compactMap { Int32($0) } ?? []
    let highest = max(open.max() ?? 0, 2) + 256
    for descriptor in Int32(3)...highest {
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    #endif
}
