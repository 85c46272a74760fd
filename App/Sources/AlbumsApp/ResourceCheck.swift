#if canImport(Glibc)
import CMallocInfo
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks that the process's limits leave `albums` what it needs, before anything that cannot
/// fail cleanly starts.
///
/// Some resources end a process with a signal, not an error, when they run out: Dispatch (under
/// Swift concurrency) traps with SIGILL when it cannot get its descriptors (`ulimit -n 4`) and
/// retries forever when it cannot map a thread's stack (`ulimit -v`), and the Swift runtime aborts
/// when an allocation fails. So `albums` first makes sure they are there, and otherwise ends with
/// one line naming the limit and the remedy:
///
/// - descriptors: ``descriptorsNeeded`` are opened (on `/`) and closed again;
/// - address space, only under a limit: ``addressSpaceNeeded`` bytes at start, and
///   ``importNeeded(bytes:)`` once an import's size is known, are reserved (`PROT_NONE`, nothing
///   touched) and released.
///
/// Passing the check does not promise the run cannot fail later; it means the run's own
/// allocations, not the runtime's, are the ones that meet the limit, and SQLite reports those
/// ("out of memory") as errors.
enum ResourceCheck {
    /// Descriptors a run may hold at once beyond the standard three: Dispatch's three (an epoll
    /// set and two event descriptors), the library, its `-wal` and `-shm`, the read-only looks the
    /// store takes before it writes (three more), a new library's temporary files (three), and an
    /// import or export file with its folder.
    static let descriptorsNeeded = 16

    /// Address space a run needs beyond what is mapped when it starts: Dispatch's worker threads
    /// (8 MiB of stack each), SQLite's page cache and the heap for a large `list`. Measured (debug
    /// build, 72 MiB mapped at start): `list` crashed with 28 MiB more, failed cleanly ("out of
    /// memory") with 35, and worked with 45. Again with swift-nio linked in for `albums serve`
    /// (83 MiB mapped at start, the server's code included, which no other command grows): on
    /// 100,005 albums `list --sort title` crashed with 35 MiB more and every listing and export
    /// worked with 41; 56 keeps that margin under `ulimit -v 150000` (BoundedMemoryTests).
    static let addressSpaceNeeded = 56 << 20

    /// Address space an import needs, checked once its size is known (the run's own needs were
    /// checked at start): 16 MiB, plus 6 bytes per byte of its file (the file, the albums made from
    /// it, about twice its size, and SQLite's buffers while they are staged). Measured: 50,000
    /// albums (3.6 MiB) peaked at 36 MB resident.
    static func importNeeded(bytes: Int) -> Int { (16 << 20) + 6 * bytes }

    /// The refusal line for a run that would exhaust its descriptors or address space, or `nil`.
    static func startupRefusal() -> String? {
        (descriptorRefusal() ?? addressSpaceRefusal(needed: addressSpaceNeeded, purpose: nil)).map {
            "albums: \($0); nothing was changed"
        }
    }

    /// Why an import of `bytes` would exhaust the address-space limit, or `nil` when it fits.
    static func importRefusal(bytes: Int) -> String? {
        addressSpaceRefusal(needed: importNeeded(bytes: bytes), purpose: "to import \(UserFile.describeSize(bytes))")
    }

    private static func descriptorRefusal() -> String? {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        var failure: Int32 = 0
        while opened.count < descriptorsNeeded {
            let descriptor = open("/", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                failure = errno
                break
            }
            opened.append(descriptor)
        }
        guard failure == EMFILE || failure == ENFILE else { return nil }
        var limit = rlimit()
        _ = getrlimit(resource(RLIMIT_NOFILE), &limit)
        let suggestion = max(64, Int(clamping: limit.rlim_cur) + descriptorsNeeded)
        let scope = failure == ENFILE ? "the system has run out of file descriptors" : "too few file descriptors"
        return "\(scope): albums needs \(descriptorsNeeded) free and found \(opened.count) (the limit is "
            + "\(limit.rlim_cur)); raise it with 'ulimit -n \(suggestion)'"
    }

    private static func addressSpaceRefusal(needed: Int, purpose: String?) -> String? {
        var limit = rlimit()
        guard getrlimit(resource(RLIMIT_AS), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        #if canImport(Glibc)
        // glibc gives each thread that allocates its own arena, reserving 64 MiB of address space
        // apiece: under a limit, those reservations, not the data, exhaust it. One arena for all
        // (set before Dispatch starts a thread) keeps the address space what the heap uses.
        _ = mallopt(M_ARENA_MAX, 1)
        #endif
        let region = mmap(nil, needed, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if region != MAP_FAILED {
            munmap(region, needed)
            return nil
        }
        let inUse = mappedBytes()
        let limitMiB = Int(clamping: limit.rlim_cur) >> 20
        // In KiB, as `ulimit -v` takes it: what is in use and needed, a quarter more, in 16 MiB steps.
        let suggestion = ((inUse + needed) / 4 * 5 + (16 << 20) - 1) / (16 << 20) * (16 << 10)
        return "not enough address space\(purpose.map { " " + $0 } ?? ""): the limit (ulimit -v) is "
            + "\(limitMiB) MiB, \(inUse >> 20) MiB are in use and albums needs about \(needed >> 20) MiB more; "
            + "raise it with 'ulimit -v \(suggestion)'"
    }

    /// The process's mapped size (`/proc/self/statm`'s first field), or 0 where it cannot be read.
    private static func mappedBytes() -> Int {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let pages = Int(String(decoding: buffer[..<count].prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)) ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    #if canImport(Glibc)
    private static func resource(_ resource: __rlimit_resource) -> __rlimit_resource_t {
        __rlimit_resource_t(resource.rawValue)
    }
    #else
    private static func resource(_ resource: Int32) -> Int32 { resource }
    #endif
}
