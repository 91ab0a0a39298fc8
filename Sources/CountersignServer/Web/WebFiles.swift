import Crypto
import Foundation
import Hummingbird
import NIOCore

/// The web app's files: HTML, CSS, JavaScript modules and images, served at their own paths from
/// `/` (`/` itself is `index.html`). From the server's bundled resources (read once at start), or
/// from a directory (`--web-root`, read on every request, so a developer's edits show at once).
///
/// Only names made of letters, digits, `.`, `-` and `_` are served, with one of a few known
/// extensions; nothing whose name starts with a dot; nothing outside the root (symbolic links
/// are not followed out of it).
package struct WebFiles: Sendable {
    package struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        /// A strong validator of the content, so a revalidation costs a 304.
        let etag: String
    }

    enum Source: Sendable {
        case memory([String: File])
        case directory(URL)
    }

    let source: Source
    /// Files larger than this are not served (a web root is small; this bounds a request's memory).
    static let maxFileBytes = 4 * 1024 * 1024

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "webmanifest": "application/manifest+json",
        "json": "application/json",
    ]

    /// The files bundled with the server (`Resources/web`), or nil when the bundle has none.
    package static func bundled() throws -> WebFiles? {
        guard let url = Bundle.module.url(forResource: "web", withExtension: nil) else { return nil }
        var files: [String: File] = [:]
        let root = url.resolvingSymlinksInPath()
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let item = enumerator?.nextObject() as? URL {
            let relative = String(item.resolvingSymlinksInPath().path.dropFirst(root.path.count))
            guard Self.isServable(relative), let file = try Self.load(item) else { continue }
            files[relative] = file
        }
        return files.isEmpty ? nil : WebFiles(source: .memory(files))
    }

    /// Files read from `directory` on each request.
    package static func directory(_ path: String) throws -> WebFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WebRootError(path: path)
        }
        return WebFiles(source: .directory(URL(fileURLWithPath: path).resolvingSymlinksInPath()))
    }

    /// The file for a request path, or nil.
    func file(at requestPath: String) throws -> File? {
        let path = requestPath == "/" ? "/index.html" : requestPath
        guard Self.isServable(path) else { return nil }
        switch source {
        case .memory(let files):
            return files[path]
        case .directory(let root):
            let url = root.appendingPathComponent(String(path.dropFirst())).resolvingSymlinksInPath()
            guard url.path.hasPrefix(root.path + "/") else { return nil }
            return try Self.load(url)
        }
    }

    /// `/a/b-c.js`: segments of `[A-Za-z0-9._-]`, none starting with a dot, a known extension.
    static func isServable(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= 256 else { return false }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.count <= 8 else { return false }
        for segment in segments {
            guard let first = segment.utf8.first, first != UInt8(ascii: "."),
                segment.utf8.allSatisfy({
                    $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "_")
                })
            else { return false }
        }
        guard let name = segments.last, let dot = name.lastIndex(of: ".") else { return false }
        return contentTypes[String(name[name.index(after: dot)...])] != nil
    }

    static func load(_ url: URL) throws -> File? {
        guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
            values.isRegularFile == true,
            let size = values.fileSize, size <= maxFileBytes
        else { return nil }
        let data = try Data(contentsOf: url)
        let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
        return File(
            bytes: ByteBuffer(bytes: data), contentType: contentTypes[url.pathExtension] ?? "application/octet-stream",
            etag: "\"\(digest)\"")
    }
}

package struct WebRootError: Error, CustomStringConvertible {
    let path: String
    package var description: String { "--web-root \(path) is not a directory" }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// Serves `WebFiles` for GET and HEAD where no route answers: the API's paths come first.
struct WebFilesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let files: WebFiles

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && [.get, .head].contains(request.method) {
            guard let file = try files.file(at: request.uri.path) else { throw error }
            var headers: HTTPFields = [
                .contentType: file.contentType, .eTag: file.etag,
                // Revalidate every time (a 304 when unchanged), so a new release is never half-cached.
                .cacheControl: "no-cache",
            ]
            if file.contentType.hasPrefix("text/html") { headers[.contentSecurityPolicy] = SecurityHeaders.appPolicy }
            if let tags = request.headers[.ifNoneMatch],
                tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag })
            {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentLength] = String(file.bytes.readableBytes)
            return Response(
                status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: file.bytes))
        }
    }
}
