import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Serves the files under one directory, safely.
///
/// ```swift
/// let assets = StaticFiles(root: "Public", urlPrefix: "/static")
/// let server = try HTTPServer(configuration: .init(port: 8080)) { request in
///     if let response = assets.response(for: request) { return response }
///     return HTTPError(.notFound).response
/// }
/// ```
/// - `Content-Type` from the extension (`MediaType`), a strong `ETag` (size and modification
///   time) answered with `304 Not Modified` on a matching `If-None-Match`, and `Cache-Control`.
/// - Only files inside `root` are served: a `..` or `.` segment (also percent-encoded), a
///   NUL, or a path whose real location (after symlinks) is outside `root` gives `nil`, like a
///   missing file, so the caller answers 404.
/// - Only regular files: a FIFO, socket or device (also through a symlink) is `nil`; files are
///   opened with `O_NONBLOCK`, so one never blocks the server's thread.
/// - No dotfiles: a path with a segment that starts with `.` (`/.env`, `/.git/config`), before
///   or after symlinks are resolved, is `nil`.
/// - `GET` and `HEAD` only; another method on an existing file gives 405 with `Allow`.
/// - Files up to 256 KiB are kept in memory and answered without a system call for
///   `revalidateAfter` seconds (default 1), then checked on disk again: a changed or removed
///   file is seen within that time. `revalidateAfter: 0` turns the cache off; larger files are
///   always sent from disk with `sendfile`.
public struct StaticFiles: Sendable {
    /// The directory served, with symlinks resolved.
    public let root: String
    /// The URL path the directory appears under (`/` or e.g. `/static`).
    public let urlPrefix: String
    public var cacheControl: String
    /// Served for a directory path (`/docs/` → `/docs/index.html`); `nil` serves no directories.
    public var indexFile: String?
    private let cache: StaticFileCache

    public init(
        root: String, urlPrefix: String = "/",
        cacheControl: String = "no-cache", indexFile: String? = "index.html", revalidateAfter: Double = 1
    ) {
        self.init(root: root, urlPrefix: urlPrefix, cacheControl: cacheControl, indexFile: indexFile,
                  cache: StaticFileCache(revalidateAfter: revalidateAfter))
    }

    /// With `cache` (for tests: one whose clock they move on).
    init(root: String, urlPrefix: String = "/", cacheControl: String = "no-cache", indexFile: String? = "index.html",
         cache: StaticFileCache) {
        self.cache = cache
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        if let resolved = realpath(absolute, nil) {
            self.root = String(cString: resolved)
            free(resolved)
        } else {
            self.root = absolute
        }
        var prefix = urlPrefix.hasPrefix("/") ? urlPrefix : "/" + urlPrefix
        while prefix.count > 1 && prefix.hasSuffix("/") { prefix.removeLast() }
        self.urlPrefix = prefix
        self.cacheControl = cacheControl
        self.indexFile = indexFile
    }

    public init(root: URL, urlPrefix: String = "/", cacheControl: String = "no-cache", indexFile: String? = "index.html",
                revalidateAfter: Double = 1) {
        self.init(root: root.path, urlPrefix: urlPrefix, cacheControl: cacheControl, indexFile: indexFile,
                  revalidateAfter: revalidateAfter)
    }

    /// The response for `request`, or `nil` when no file of ours matches (the caller decides
    /// what to do: usually 404).
    public func response(for request: Request) -> Response? {
        let rawPath = request.rawPath
        if let entry = cache.fresh(rawPath) {
            return response(for: request, path: entry.path, etag: entry.etag, lastModified: entry.lastModified,
                            body: .bytes(entry.bytes))
        }
        guard let path = filePath(forRawPath: rawPath), let file = OpenFile(path: path) else {
            cache.remove(rawPath)
            return nil
        }
        let body: Response.Body = cache.store(rawPath, path: path, file: file).map { .bytes($0.bytes) } ?? .file(file)
        return response(for: request, path: path, etag: file.etag, lastModified: Self.lastModified(file), body: body)
    }

    static func lastModified(_ file: OpenFile) -> String {
        SetCookie.httpDate(Date(timeIntervalSince1970: Double(file.modificationTimeNanoseconds / 1_000_000_000)))
    }

    private func response(for request: Request, path: String, etag: String, lastModified: String, body: Response.Body) -> Response {
        guard request.method == .get || request.method == .head else {
            return HTTPError(.methodNotAllowed, message: "Static files answer GET and HEAD", headers: ["Allow": "GET, HEAD"]).response
        }
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": cacheControl]
        if let ifNoneMatch = request.headers["If-None-Match"], Self.matches(ifNoneMatch, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers["Content-Type"] = MediaType.forPath(path)
        headers["Last-Modified"] = lastModified
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The real path of the regular file `rawPath` names inside `root`, or `nil`.
    func filePath(forRawPath rawPath: String) -> String? {
        guard rawPath.hasPrefix(urlPrefix) else { return nil }
        let rest = rawPath.dropFirst(urlPrefix.count)
        guard urlPrefix == "/" || rest.isEmpty || rest.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in rest.split(separator: "/") {
            let segment = PercentDecoding.decode(String(raw), plusAsSpace: false)
            // `.`, `..` and every dotfile or dot-directory (`.env`, `.git`).
            if segment.hasPrefix(".") || segment.contains("/") || segment.contains("\0")
                || segment.contains("\\") || segment.contains("\u{FFFD}") {
                return nil
            }
            segments.append(segment)
        }
        var candidate = ([root] + segments).joined(separator: "/")
        guard var resolved = Self.realPath(candidate), isServable(resolved) else { return nil }
        if Self.isDirectory(resolved) {
            guard let indexFile else { return nil }
            candidate = resolved + "/" + indexFile
            guard let index = Self.realPath(candidate), isServable(index) else { return nil }
            resolved = index
        }
        return resolved
    }

    /// Inside `root`, and no dot-segment below it (a symlink named `ok.txt` may point at `.env`).
    private func isServable(_ path: String) -> Bool {
        guard path == root || path.hasPrefix(root == "/" ? "/" : root + "/") else { return false }
        return !path.dropFirst(root.count).split(separator: "/").contains { $0.hasPrefix(".") }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `If-None-Match: "a", W/"b"` or `*` (weak comparison, as RFC 9110 asks for GET).
    public static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
