import CountersignAPI
import Foundation
import FuzzDriver

/// The request bodies the server decodes with Foundation's JSONDecoder (Request+JSON.swift does the same).
let decoders: [@Sendable (Data) -> Void] = [
    { _ = try? JSONDecoder().decode(SignupRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(LoginRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(RegistrationResponseJSON.self, from: $0) },
    { _ = try? JSONDecoder().decode(AuthenticationResponseJSON.self, from: $0) },
    { _ = try? JSONDecoder().decode(AuthenticationOptionsRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(TopUpRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(CreateTransferRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(MerchantRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(AddressBody.self, from: $0) },
    { _ = try? JSONDecoder().decode(CreateProductRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(CreateBidRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(CheckoutTotalsRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(PayOrderRequest.self, from: $0) },
    { _ = try? JSONDecoder().decode(AddCardRequest.self, from: $0) },
]

/// libFuzzer's entry point: every request type decodes the same input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let body = Data(bytes: data, count: size)
    for decode in decoders { decode(body) }
    return 0
}

/// The executable's entry point. SwiftPM links executables with `main` renamed to `<module>_main` (so tests can
/// link them), which keeps libFuzzer's own `main` out; this one hands control to libFuzzer's driver.
@_cdecl("fuzz_json_requests_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}
