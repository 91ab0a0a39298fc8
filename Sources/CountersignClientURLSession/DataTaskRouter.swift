import CountersignClient
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of a `URLSessionTransport`: it hands each data task's response head to the
/// caller waiting for it and its body chunks to that response's stream, as URLSession delivers them.
final class DataTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    /// One task in flight: who waits for the head (until it arrived), and where the body goes.
    private struct Exchange {
        var head: CheckedContinuation<TransportStream, any Error>?
        let body: AsyncThrowingStream<[UInt8], any Error>
        let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    }

    private let exchanges = Mutex<[Int: Exchange]>([:])

    /// Routes `task`'s callbacks; `head` is resumed with the response, or with the error that
    /// ended the task before one arrived. Call before resuming the task.
    func register(_ task: URLSessionDataTask, head: CheckedContinuation<TransportStream, any Error>) {
        let (body, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        // The reader stopped early (cancelled, or gone): the connection is no longer wanted.
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        exchanges.withLock { $0[task.taskIdentifier] = Exchange(head: head, body: body, continuation: continuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        deliverHead(of: dataTask, response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // The head first, should a platform skip the response callback.
        if let response = dataTask.response { deliverHead(of: dataTask, response) }
        let continuation = exchanges.withLock { $0[dataTask.taskIdentifier]?.continuation }
        continuation?.yield(Array(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if error == nil, let response = task.response { deliverHead(of: task, response) }
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let head = exchange.head {
            head.resume(throwing: error ?? URLError(.badServerResponse))
        }
        exchange.continuation.finish(throwing: error)
    }

    /// Resumes the waiting caller with `response`'s status and headers, once per task.
    private func deliverHead(of task: URLSessionTask, _ response: URLResponse) {
        let waiting = exchanges.withLock {
            exchanges -> (CheckedContinuation<TransportStream, any Error>, AsyncThrowingStream<[UInt8], any Error>)? in
            guard let exchange = exchanges[task.taskIdentifier], let head = exchange.head else { return nil }
            exchanges[task.taskIdentifier]?.head = nil
            return (head, exchange.body)
        }
        guard let (head, body) = waiting else { return }
        guard let http = response as? HTTPURLResponse else {
            task.cancel()
            return head.resume(throwing: URLError(.badServerResponse))
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            headers[name] = value
        }
        head.resume(returning: TransportStream(status: http.statusCode, headers: headers, body: body))
    }
}
