#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes an event stream has queued and not yet handed to libmicrohttpd, as a queue of
/// chunks: what it holds in memory is what ``heldBytes`` says, and what the client has taken is
/// freed chunk by chunk.
///
/// One growing `[UInt8]` held up to twice its unsent bytes (capacity doubled on growth, and the
/// bytes already sent kept until half the buffer was sent), and each growth copied the whole
/// backlog: a client that stopped reading cost the server far more than the budget counted.
/// Here a chunk is sized to what is appended or to the backlog, whichever is larger (at least
/// ``minimumChunk``, at most ``maximumChunk``), filled before another is made, never
/// reallocated, and freed once read. Chunks of ``mappedChunk`` or more are mappings of their
/// own (``SendChunk``), so the memory of a client that fell behind goes back to the kernel when
/// it is freed, whatever malloc does with its heap (glibc raises its mmap threshold to the size
/// of each mapped block freed, up to 32 MiB, after which big buffers stayed in the heap: 500
/// streams nobody read took RSS to 690 MB under a 256 MiB budget, 514 MB once cut). What is
/// counted includes the last chunk's room, so it is at least what is resident.
///
/// ```swift
/// var buffer = SendBuffer()
/// buffer.append(Array("data: x\n\n".utf8))
/// buffer.count       // 9 unsent bytes
/// buffer.heldBytes   // ≥ 9: the chunks' allocation
/// ```
/// - Complexity: `append` is O(bytes appended); `read` O(bytes read + chunks freed).
struct SendBuffer {
    /// Smallest chunk made (a few small events share one).
    static let minimumChunk = 4 * 1024
    /// Largest chunk.
    static let maximumChunk = 128 * 1024
    /// Chunks this large or larger are mappings of their own.
    static let mappedChunk = 64 * 1024

    /// The chunks in use, oldest first (a few dozen at most: chunks grow with the backlog).
    private var chunks: [SendChunk] = []
    /// Bytes of the first chunk already read.
    private var offset = 0
    /// Unsent bytes.
    private(set) var count = 0
    /// Bytes allocated for the chunks in use: what this buffer holds.
    private(set) var heldBytes = 0

    var isEmpty: Bool { count == 0 }

    /// Returns `false` when no memory could be had (nothing is appended then).
    @discardableResult
    mutating func append(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { append($0) }
    }

    @discardableResult
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return true }
        var done = 0
        if let last = chunks.last {
            done = last.fill(from: source, count: bytes.count)
        }
        while done < bytes.count {
            let rest = bytes.count - done
            // As large as what is appended, or as the backlog already is: a client that falls
            // behind soon gets full chunks, mappings of their own.
            let size = min(Self.maximumChunk, max(Self.minimumChunk, rest, count + done))
            guard let chunk = SendChunk(capacity: size, mapped: size >= Self.mappedChunk) else {
                // Out of memory: what was written of this append stays (the caller ends the stream).
                count += done
                return false
            }
            done += chunk.fill(from: source + done, count: rest)
            heldBytes += chunk.capacity
            chunks.append(chunk)
        }
        count += bytes.count
        return true
    }

    /// Copies up to `capacity` unsent bytes to `destination` and frees the chunks read whole.
    /// Returns how many were copied.
    mutating func read(into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        var copied = 0
        while copied < capacity, let chunk = chunks.first {
            let n = min(capacity - copied, chunk.count - offset)
            (destination + copied).copyMemory(from: chunk.base + offset, byteCount: n)
            copied += n
            offset += n
            if offset == chunk.count {
                // Read whole: freed now (a mapping is returned to the kernel).
                heldBytes -= chunk.capacity
                chunks.removeFirst()
                offset = 0
            }
        }
        count -= copied
        return copied
    }

    /// The chunks' sizes, oldest first (for tests).
    var chunkSizes: [Int] { chunks.map(\.capacity) }

    /// Frees everything.
    mutating func removeAll() {
        chunks = []
        offset = 0
        count = 0
        heldBytes = 0
    }
}

/// One chunk of a ``SendBuffer``: `malloc`'d, or, when `mapped`, an anonymous mapping of its
/// own, unmapped when the chunk is freed (its memory leaves the process at once). A chunk read
/// whole is dropped by the buffer, which frees it. Used only inside its stream's lock
/// (`@unchecked Sendable` says so to the compiler, which cannot see through the pointer).
final class SendChunk: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    /// Bytes allocated (whole pages when mapped).
    let capacity: Int
    let isMapped: Bool
    /// Bytes written.
    private(set) var count = 0

    /// `nil` when no memory could be had.
    init?(capacity wanted: Int, mapped: Bool) {
        if mapped {
            let page = max(4096, Int(getpagesize()))
            let size = (wanted + page - 1) / page * page
            if let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapping != MAP_FAILED {
                base = mapping
                capacity = size
                isMapped = true
                return
            }
        }
        guard let block = malloc(wanted) else { return nil }
        base = block
        capacity = wanted
        isMapped = false
    }

    deinit {
        if isMapped { munmap(base, capacity) } else { free(base) }
    }

    /// Copies as much of `count` bytes at `source` as there is room for; returns how many.
    func fill(from source: UnsafeRawPointer, count wanted: Int) -> Int {
        let n = min(wanted, capacity - count)
        guard n > 0 else { return 0 }
        (base + count).copyMemory(from: source, byteCount: n)
        count += n
        return n
    }
}
