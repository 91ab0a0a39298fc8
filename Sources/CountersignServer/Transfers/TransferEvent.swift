import CountersignCore

/// One stored version of a transfer document.
package struct TransferEvent: Sendable, Equatable {
    package let sequence: Int64
    package let status: TransferStatus
    /// The document as JSON, exactly as streamed.
    package let document: String
}
