#if canImport(Glibc)
import Glibc
#endif

/// A regular file opened for reading, owned by a `Response` body until the server has
/// handed a duplicate of its descriptor to libmicrohttpd (which sends it with `sendfile`).
/// Closed when the last reference goes away, so a response that is never sent leaks nothing.
public final class OpenFile: Sendable {
    public let descriptor: Int32
    public let size: Int
    /// Modification time in nanoseconds since the epoch.
    public let modificationTimeNanoseconds: Int

    /// Opens `path` (following symlinks); `nil` unless it is a readable regular file.
    ///
    /// Opened with `O_NONBLOCK`, then checked with `fstat`: opening a FIFO without it blocks
    /// until a writer appears (and a device may block or never end), which would stall the
    /// server's I/O thread. `O_NONBLOCK` does not change how a regular file reads.
    public init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        descriptor = fd
        size = Int(info.st_size)
        modificationTimeNanoseconds = Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec)
    }

    deinit { close(descriptor) }

    /// A strong validator from size and modification time: `"1a2b-17c3…"`.
    public var etag: String {
        "\"\(String(size, radix: 16))-\(String(modificationTimeNanoseconds, radix: 16))\""
    }
}
