// Fuzz target: the album query parser and its SQL (`AlbumQuery`, `LibraryAPI.albums(matching:order:)`).
// `Scripts/fuzz.sh` builds it with libFuzzer; a plain build replays the files named as arguments.
import FuzzSupport

/// One fuzz case.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    AlbumQueryFuzzer.run(FuzzMain.bytes(data, size))
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

FuzzMain.run(name: "fuzz-album-query", callback: fuzzOneInput)
