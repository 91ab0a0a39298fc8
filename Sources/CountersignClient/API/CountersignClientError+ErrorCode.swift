import CountersignAPI

extension CountersignClientError {
    /// The server's code of an `.api` error as an `ErrorCode`: nil for other errors, and for a code
    /// this SDK does not know yet (a newer server), whose string `code` still carries.
    public var errorCode: ErrorCode? {
        code.flatMap(ErrorCode.init(rawValue:))
    }
}
