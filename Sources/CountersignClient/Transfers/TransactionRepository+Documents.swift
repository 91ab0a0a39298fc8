import CountersignAPI
import Foundation

extension TransactionRepository {
    /// Every version of the transfer after sequence `after` (all, starting with the current one,
    /// when nil), in order and each once, finishing after a final status.
    ///
    /// A dropped connection is reopened with `Last-Event-ID` set to the last sequence yielded, so
    /// nothing is missed; after `reconnect.maxAttempts` failures in a row the stream throws
    /// `CountersignClientError.transport`. A refusal (e.g. 404 `not_found`) throws at once.
    public func documents(_ transferId: String, after: Int64? = nil) -> AsyncThrowingStream<TransferDocument, any Error>
    {
        let (documents, continuation) = AsyncThrowingStream.makeStream(of: TransferDocument.self)
        let watcher = Task {
            var last = after
            var failures = 0
            var lastFailure = ""
            while !Task.isCancelled {
                do {
                    var received = false
                    for try await event in try await client.transferEvents(id: transferId, lastEventId: last) {
                        // The server's events are unnamed (`message`); `transfer` is what servers before 0.10 sent.
                        guard event.event == "message" || event.event == "transfer" else { continue }
                        received = true
                        let document = try client.decode(TransferDocument.self, from: Array(event.data.utf8))
                        // A replay after reconnecting may repeat what was already yielded.
                        guard document.sequence > (last ?? 0) else { continue }
                        continuation.yield(document)
                        last = document.sequence
                        failures = 0
                        if document.status.isFinal {
                            continuation.finish()
                            return
                        }
                    }
                    if !received, !Task.isCancelled {
                        // 204 (or an empty stream): the document is final and we have its last
                        // version, or missed it; the document itself says which.
                        let document = try await client.transfer(id: transferId)
                        if document.status.isFinal {
                            if document.sequence > (last ?? 0) { continuation.yield(document) }
                            continuation.finish()
                            return
                        }
                    }
                    lastFailure = "the event stream ended before a final status"
                } catch let error as CountersignClientError where !error.isRetryable {
                    continuation.finish(throwing: error)
                    return
                } catch {
                    lastFailure = String(describing: error)
                }
                failures += 1
                guard failures <= reconnect.maxAttempts, !Task.isCancelled else { break }
                do {
                    try await reconnect.sleep(reconnect.delay(beforeAttempt: failures))
                } catch {
                    break
                }
            }
            continuation.finish(throwing: CountersignClientError.transport("transfer \(transferId): \(lastFailure)"))
        }
        continuation.onTermination = { _ in watcher.cancel() }
        return documents
    }
}
