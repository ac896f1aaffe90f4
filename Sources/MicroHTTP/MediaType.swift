/// Content types for the files a web app serves, by extension.
public enum MediaType {
    /// The `Content-Type` for `path`'s extension (`application/octet-stream` when unknown).
    /// - Complexity: O(1).
    public static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return defaultType }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? defaultType
    }

    public static let defaultType = "application/octet-stream"

    public static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json",
        "map": "application/json", "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8",
        "csv": "text/csv; charset=utf-8", "xml": "application/xml", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "pdf": "application/pdf", "webmanifest": "application/manifest+json",
        "yaml": "application/yaml", "yml": "application/yaml", "mp4": "video/mp4", "webm": "video/webm",
    ]
}
