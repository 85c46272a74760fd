// Fuzz target: stored commands (CommandStore's durable history read back from arbitrary rows).
// `Scripts/fuzz.sh` builds it with libFuzzer; a plain build replays the files named as arguments.
import FuzzSupport

/// One fuzz case. Exported under libFuzzer's name, which its runtime library needs to link.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    StoredCommandsFuzzer.run(FuzzMain.bytes(data, size))
    return 0
}

FuzzMain.run(name: "fuzz-stored-commands", callback: fuzzTestOneInput)
