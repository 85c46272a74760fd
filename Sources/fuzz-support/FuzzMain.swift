import Foundation

/// A fuzz case, in the shape libFuzzer calls: the input's bytes and their count; returns 0.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzCallback
) -> CInt
#endif

/// The entry point of every fuzz target.
///
/// Built by `Scripts/fuzz.sh` (`-sanitize=fuzzer -D FUZZING`), it hands the command line to
/// libFuzzer's driver, which mutates inputs and calls `callback` with each. A target's `main.swift`
/// defines its own `main`, which would hide libFuzzer's, so the driver is started explicitly. In a
/// plain build it replays inputs instead (see ``FuzzReplay``).
///
/// ```swift
/// func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///     MyFuzzer.run(FuzzMain.bytes(data, size))
///     return 0
/// }
///
/// #if FUZZING
/// @_cdecl("LLVMFuzzerTestOneInput")   // libFuzzer's runtime needs the symbol to link
/// func libFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///     fuzzOneInput(data, size)
/// }
/// #endif
///
/// FuzzMain.run(name: "fuzz-my-target", callback: fuzzOneInput)
/// ```
public enum FuzzMain: Sendable {
    /// Runs libFuzzer (fuzz builds) or replays the files named on the command line (plain builds).
    ///
    /// - Parameters:
    ///   - name: The target's name, for messages.
    ///   - callback: One fuzz case.
    /// - Returns: Never: exits with libFuzzer's status, or ``FuzzReplay``'s.
    public static func run(name: String, callback: FuzzCallback) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzerDriver(&argc, &argv, callback))
        #else
        FuzzReplay.main(name: name, arguments: CommandLine.arguments) { bytes in
            _ = bytes.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
        }
        #endif
    }

    /// Copies a fuzz case's bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }
}
