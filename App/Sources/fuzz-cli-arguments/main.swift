// Fuzz target: the albums command-line parser. `Scripts/fuzz.sh` builds it with libFuzzer; a plain
// build replays the files named as arguments (each file: arguments separated by NUL bytes).
import FuzzSupport

/// One fuzz case.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CLIArgumentsFuzzer.run(FuzzMain.bytes(data, size))
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

FuzzMain.run(name: "fuzz-cli-arguments", callback: fuzzOneInput)
