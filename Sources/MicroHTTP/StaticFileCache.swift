#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Small static files kept in memory for a short while, like nginx's `open_file_cache`.
///
/// Answering a file from disk costs about ten system calls (resolving the path component by
/// component, `stat`, `open`, `fstat`, `dup`, `sendfile`, two `close`s); a profile under load
/// spent 58% of the time in the kernel. A cached file is answered with no system call for
/// `revalidateAfter` seconds, then checked again (its path resolved anew, its size and
/// modification time compared), so an edited, replaced or deleted file is seen within that
/// time. Only files up to `maximumFileSize` are kept, and at most `capacity` bytes in all.
final class StaticFileCache: Sendable {
    struct Entry: Sendable {
        var path: String
        var bytes: [UInt8]
        var etag: String
        var lastModified: String
        var modificationTimeNanoseconds: Int
        /// The cache's clock (`now`, nanoseconds) when the file was last checked on disk.
        var checkedAt: UInt64
    }

    let revalidateAfterNanoseconds: UInt64
    let maximumFileSize: Int
    let capacity: Int
    /// The time entries are checked against, in nanoseconds: `CLOCK_MONOTONIC`, or a clock a
    /// test moves on instead of waiting for `revalidateAfter` to pass.
    private let now: @Sendable () -> UInt64
    private let state = Mutex<(entries: [String: Entry], bytes: Int)>(([:], 0))

    init(revalidateAfter seconds: Double, maximumFileSize: Int = 256 * 1024, capacity: Int = 32 * 1024 * 1024,
         clock now: @escaping @Sendable () -> UInt64 = monotonicNanoseconds) {
        revalidateAfterNanoseconds = UInt64(max(0, seconds) * 1_000_000_000)
        self.maximumFileSize = maximumFileSize
        self.capacity = capacity
        self.now = now
    }

    var isEnabled: Bool { revalidateAfterNanoseconds > 0 && capacity > 0 }

    /// The fresh entry for a request path, or `nil` (never cached, or due for a check).
    func fresh(_ rawPath: String) -> Entry? {
        guard isEnabled else { return nil }
        let now = self.now()
        return state.withLock { state in
            guard let entry = state.entries[rawPath], now &- entry.checkedAt < revalidateAfterNanoseconds else { return nil }
            return entry
        }
    }

    /// The entry for a file just resolved and opened: the cached bytes when the file is
    /// unchanged, else its content read now; `nil` when it is not worth keeping.
    func store(_ rawPath: String, path: String, file: OpenFile) -> Entry? {
        guard isEnabled, file.size <= maximumFileSize, file.size <= capacity else { return nil }
        let now = self.now()
        if let reused = state.withLock({ state -> Entry? in
            guard var entry = state.entries[rawPath], entry.path == path,
                  entry.bytes.count == file.size, entry.modificationTimeNanoseconds == file.modificationTimeNanoseconds
            else { return nil }
            entry.checkedAt = now
            state.entries[rawPath] = entry
            return entry
        }) {
            return reused
        }
        guard let bytes = Self.read(file) else { return nil }
        let entry = Entry(path: path, bytes: bytes, etag: file.etag, lastModified: StaticFiles.lastModified(file),
                          modificationTimeNanoseconds: file.modificationTimeNanoseconds, checkedAt: now)
        state.withLock { state in
            if let old = state.entries[rawPath] { state.bytes -= old.bytes.count }
            if state.bytes + bytes.count > capacity {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[rawPath] = entry
            state.bytes += bytes.count
        }
        return entry
    }

    /// Forgets a path (it no longer names a file of ours).
    func remove(_ rawPath: String) {
        guard isEnabled else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: rawPath) { state.bytes -= old.bytes.count }
        }
    }

    /// The whole file, read with `pread` (the descriptor's offset is left alone for `sendfile`).
    private static func read(_ file: OpenFile) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: file.size)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }  // an empty file
            while done < file.size {
                let count = pread(file.descriptor, base + done, file.size - done, off_t(done))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: cheap, and never goes back.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
