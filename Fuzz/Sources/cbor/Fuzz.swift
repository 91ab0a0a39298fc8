import FuzzDriver
@_spi(Fuzzing) import WebAuthn

/// libFuzzer's entry point: one input per call; a trap, leak or hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzEntryPoints.cbor(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The executable's entry point. SwiftPM links executables with `main` renamed to `<module>_main` (so tests can
/// link them), which keeps libFuzzer's own `main` out; this one hands control to libFuzzer's driver.
@_cdecl("fuzz_cbor_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}
