/// The bytes an event stream has queued and not yet handed to libmicrohttpd, as a queue of
/// chunks: what it holds in memory is what ``heldBytes`` says, and what the client has taken is
/// freed chunk by chunk.
///
/// One growing `[UInt8]` held up to twice its unsent bytes (capacity doubled on growth, and the
/// bytes already sent kept until half the buffer was sent), and each growth copied the whole
/// backlog: a client that stopped reading cost the server far more than the budget counted.
/// Here a chunk is sized to what is appended or to the backlog, whichever is larger (at least
/// ``minimumChunk``, at most ``maximumChunk``), filled before another is made, never
/// reallocated, and freed once read. The largest chunks are as large as glibc's mmap threshold
/// (see `ProcessMemory`), so the memory of a client that fell behind goes back to the kernel
/// when it is freed. What is counted (`heldBytes`) includes the last chunk's room, so it is at
/// least what is resident.
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
    /// Largest chunk: glibc's mmap threshold as `ProcessMemory` fixes it, so that a full chunk
    /// is a mapping of its own, returned to the kernel when freed.
    static let maximumChunk = ProcessMemory.mmapThreshold

    private var chunks: [[UInt8]] = []
    /// Index of the first chunk still in use; chunks before it were freed.
    private var first = 0
    /// Bytes of `chunks[first]` already read.
    private var offset = 0
    /// Unsent bytes.
    private(set) var count = 0
    /// Bytes allocated for the chunks in use (their capacity): what this buffer holds.
    private(set) var heldBytes = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        guard !rest.isEmpty else { return }
        count += bytes.count
        if first < chunks.count {
            let last = chunks.count - 1
            let room = chunks[last].capacity - chunks[last].count
            if room > 0 {
                let n = min(room, rest.count)
                chunks[last].append(contentsOf: UnsafeBufferPointer(rebasing: rest.prefix(n)))
                rest = rest.dropFirst(n)
            }
        }
        while !rest.isEmpty {
            var chunk: [UInt8] = []
            // As large as what is appended, or as the backlog already is: a client that falls
            // behind soon gets full chunks, mappings of their own that leave the process when
            // freed (small ones live in malloc's heap, where freed memory stays).
            chunk.reserveCapacity(min(Self.maximumChunk, max(Self.minimumChunk, rest.count, count - rest.count)))
            let n = min(chunk.capacity, rest.count)
            chunk.append(contentsOf: UnsafeBufferPointer(rebasing: rest.prefix(n)))
            rest = rest.dropFirst(n)
            heldBytes += chunk.capacity
            chunks.append(chunk)
        }
    }

    /// Copies up to `capacity` unsent bytes to `destination` and frees the chunks read whole.
    /// Returns how many were copied.
    mutating func read(into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        var copied = 0
        while copied < capacity, first < chunks.count {
            let n = chunks[first].withUnsafeBytes { chunk -> Int in
                let n = min(capacity - copied, chunk.count - offset)
                (destination + copied).copyMemory(from: chunk.baseAddress! + offset, byteCount: n)
                return n
            }
            copied += n
            offset += n
            if offset == chunks[first].count {
                heldBytes -= chunks[first].capacity
                chunks[first] = []
                first += 1
                offset = 0
            }
        }
        count -= copied
        if first == chunks.count {
            removeAll()
        } else if first >= 64, first * 2 >= chunks.count {
            chunks.removeFirst(first)
            first = 0
        }
        return copied
    }

    /// Frees everything.
    mutating func removeAll() {
        chunks = []
        first = 0
        offset = 0
        count = 0
        heldBytes = 0
    }
}
