import CountersignAPI
import Foundation

/// Why a call to the Countersign server did not give the expected answer.
public enum CountersignClientError: Error, Sendable, Equatable {
    /// The server refused: its status, stable machine code, message, when locked the seconds to wait,
    /// and the request's trace id (show it to the user as a reference: the operator finds the request
    /// by it).
    case api(status: Int, code: String, message: String, retryAfter: Int?, traceId: String? = nil)
    /// No answer arrived: the connection failed, timed out or dropped.
    case transport(String)
    /// An answer arrived that is not what the contract promises.
    case decoding(String)

    /// The machine code of an `.api` error, nil otherwise.
    public var code: String? {
        if case .api(_, let code, _, _, _) = self { code } else { nil }
    }

    /// `error` as a client error: itself if it is one, else a transport failure describing it.
    public init(_ error: any Error) {
        self = (error as? CountersignClientError) ?? .transport(String(describing: error))
    }

    /// The request's trace id of an `.api` error, when the server sent one.
    public var traceId: String? {
        if case .api(_, _, _, _, let traceId) = self { traceId } else { nil }
    }

    /// Whether the SDK may try the same request again: only when no answer, or a server fault, arrived.
    public var isRetryable: Bool {
        switch self {
        case .transport: true
        case .api(let status, _, _, _, _): status >= 500
        case .decoding: false
        }
    }

    /// The error a non-2xx answer stands for. Reads the general body `{"error":{…}}`, then the
    /// biometric verify endpoint's flat `{"verified":false,"code","message","retryAfter"}`.
    static func fromResponse(status: Int, headers: [String: String], body: [UInt8]) -> CountersignClientError {
        let headerRetry = headers["retry-after"].flatMap { Int($0) }
        let data = Data(body)
        if let general = try? JSONDecoder().decode(ErrorResponse.self, from: data) {
            let error = general.error
            return .api(
                status: status, code: error.code, message: error.message, retryAfter: error.retryAfter ?? headerRetry,
                traceId: error.traceId)
        }
        if let flat = try? JSONDecoder().decode(FlatError.self, from: data), let code = flat.code {
            return .api(
                status: status, code: code, message: flat.message ?? "", retryAfter: flat.retryAfter ?? headerRetry,
                traceId: flat.traceId)
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return .api(status: status, code: "http_\(status)", message: text, retryAfter: headerRetry)
    }

    /// The verification-failure shape, every field optional so that anything else fails over.
    private struct FlatError: Decodable {
        var code: String?
        var message: String?
        var retryAfter: Int?
        var traceId: String?
    }
}
