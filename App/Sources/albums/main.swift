// The albums executable: everything lives in AlbumsApp, where tests reach it.
import AlbumsApp
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Synchronous top-level code: the main thread runs the main run loop, which serves the main actor,
// instead of an async `main` parking it in `dispatchMain()`. That calls `pthread_exit` on the
// main thread, whose unwinding sorts every frame-table entry of a statically linked binary first
// (about 20 ms for albums, BENCHMARKS.md "Start-up").
// Before the run loop starts Dispatch: without its descriptors it traps instead of failing.
if let status = AlbumsApp.refusalBeforeStart() { exit(status) }
Task { @MainActor in
    exit(await AlbumsApp.run(arguments: CommandLine.arguments))
}
RunLoop.main.run()
// The run loop returns only when nothing is left to run; the task always exits before that.
exit(AlbumsApp.failureExitCode)
