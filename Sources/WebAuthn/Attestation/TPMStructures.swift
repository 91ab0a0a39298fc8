/// Big-endian reader over TPM 2.0 marshalled structures (TPM 2.0 Part 2); every read is bounds-checked.
struct TPMReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) throws(WebAuthnError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else {
            throw WebAuthnError(.malformedAttestation, "TPM structure truncated")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func uint16() throws(WebAuthnError) -> UInt16 {
        try take(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() throws(WebAuthnError) -> UInt32 {
        try take(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A TPM2B_*: a 16-bit size, then that many bytes.
    mutating func sized() throws(WebAuthnError) -> [UInt8] {
        try take(Int(try uint16()))
    }
}

/// TPM_ALG_ID values used by WebAuthn (TPM 2.0 Part 2 §6.3).
enum TPMAlgorithm {
    static let rsa: UInt16 = 0x0001, sha1: UInt16 = 0x0004, sha256: UInt16 = 0x000B
    static let sha384: UInt16 = 0x000C, sha512: UInt16 = 0x000D, null: UInt16 = 0x0010, ecc: UInt16 = 0x0023
}

/// TPMT_PUBLIC: the public area of the credential key inside the TPM (TPM 2.0 Part 2 §12.2.4).
struct TPMPublicArea {
    let type: UInt16
    let nameAlg: UInt16
    /// RSA: keyBits-independent exponent (0 means 65537) and modulus.
    var exponent: UInt32 = 0
    var modulus: [UInt8] = []
    /// ECC: TPM_ECC_CURVE and the point.
    var curve: UInt16 = 0
    var x: [UInt8] = []
    var y: [UInt8] = []

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes)
        type = try reader.uint16()
        nameAlg = try reader.uint16()
        _ = try reader.uint32() // objectAttributes
        _ = try reader.sized() // authPolicy
        // TPMT_SYM_DEF_OBJECT: keyBits and mode follow unless the algorithm is TPM_ALG_NULL.
        if try reader.uint16() != TPMAlgorithm.null { _ = try reader.take(4) }
        switch type {
        case TPMAlgorithm.rsa:
            // TPMS_RSA_PARMS: scheme (+ hashAlg unless NULL), keyBits, exponent; unique = TPM2B_PUBLIC_KEY_RSA.
            if try reader.uint16() != TPMAlgorithm.null { _ = try reader.take(2) }
            _ = try reader.uint16()
            exponent = try reader.uint32()
            modulus = try reader.sized()
        case TPMAlgorithm.ecc:
            // TPMS_ECC_PARMS: scheme (+ hashAlg), curveID, kdf (+ hashAlg); unique = TPMS_ECC_POINT.
            if try reader.uint16() != TPMAlgorithm.null { _ = try reader.take(2) }
            curve = try reader.uint16()
            if try reader.uint16() != TPMAlgorithm.null { _ = try reader.take(2) }
            x = try reader.sized()
            y = try reader.sized()
        default:
            throw WebAuthnError(.malformedAttestation, "TPM pubArea type \(type) is neither RSA nor ECC")
        }
        guard reader.isAtEnd else { throw WebAuthnError(.malformedAttestation, "TPM pubArea has trailing bytes") }
    }
}

/// TPMS_ATTEST for TPM_ST_ATTEST_CERTIFY (TPM 2.0 Part 2 §10.12.12), with the fields WebAuthn checks.
struct TPMCertifyInfo {
    let magic: UInt32
    let type: UInt16
    let extraData: [UInt8]
    /// TPMS_CERTIFY_INFO.name: nameAlg || H(pubArea).
    let attestedName: [UInt8]

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes)
        magic = try reader.uint32()
        type = try reader.uint16()
        _ = try reader.sized() // qualifiedSigner
        extraData = try reader.sized()
        _ = try reader.take(17) // clockInfo: clock (8), resetCount (4), restartCount (4), safe (1)
        _ = try reader.take(8) // firmwareVersion
        attestedName = try reader.sized()
        _ = try reader.sized() // qualifiedName
        guard reader.isAtEnd else { throw WebAuthnError(.malformedAttestation, "TPM certInfo has trailing bytes") }
    }
}
