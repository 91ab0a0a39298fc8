import CountersignCodec

/// Base64url without padding, the encoding of every binary WebAuthn field; it lives in
/// `CountersignCodec`, which the SDK shares without depending on the verifier.
public typealias Base64URL = CountersignCodec.Base64URL
