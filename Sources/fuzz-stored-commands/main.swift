// Fuzz target: stored commands (CommandStore's durable history read back from arbitrary rows).
// `Scripts/fuzz.sh` builds it with libFuzzer; a plain build replays the files named as arguments.
import FuzzSupport

/// One fuzz case.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    StoredCommandsFuzzer.run(FuzzMain.bytes(data, size))
    return 0
}

#if FUZZING
/// libFuzzer's runtime needs this symbol to link. Fuzz builds only: test bundles link every
/// executable target's objects together, where one global name per target would collide.
@_cdecl("LLVMFuzzerTestOneInput")
func libFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOneInput(data, size)
}
#endif

FuzzMain.run(name: "fuzz-stored-commands", callback: fuzzOneInput)
