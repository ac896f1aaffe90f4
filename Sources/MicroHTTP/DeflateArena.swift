import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of one active deflate state: a single anonymous mapping that zlib's allocations
/// (state, window, hash chains, block buffer: ~150 KiB with `windowBits` 15, `memoryLevel` 5)
/// are carved from, unmapped when the state is freed. Through `malloc` the freed pieces stayed in
/// the process (RSS of 500 idle streams did not fall when they freed their states); an unmapped
/// region is returned to the kernel at once. An allocation that does not fit (a zlib that asks
/// for more than reckoned) falls back to `calloc`/`free`. zlib's stream record itself is at the
/// start of the mapping (``stream``).
struct DeflateArena {
    let base: UnsafeMutableRawPointer
    let size: Int
    /// Bytes at the start of the mapping: its size and how much is carved (two `Int`s), then
    /// the stream record.
    private static let counters = 16
    private static let headerBytes = counters + (MemoryLayout<z_stream>.size + 15) & ~15

    init?(windowBits: Int, memoryLevel: Int) {
        let window = 1 << min(15, max(9, windowBits)), hash = 1 << (min(9, max(1, memoryLevel)) + 7)
        let literals = 1 << (min(9, max(1, memoryLevel)) + 6)
        // zlib 1.2–1.3: the state (~6 KiB), window (2 × w), prev (2 × w), head (2 × hash),
        // pending buffer (up to 5 × literals), each rounded up here to 16 bytes.
        let wanted = Self.headerBytes + 8 * 1024 + 4 * window + 2 * hash + 5 * literals + 5 * 16
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        size = (wanted + page - 1) / page * page
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else { return nil }
        base = mapped
        base.storeBytes(of: size, as: Int.self)
        base.storeBytes(of: Self.headerBytes, toByteOffset: MemoryLayout<Int>.stride, as: Int.self)
        (base + Self.counters).bindMemory(to: z_stream.self, capacity: 1).initialize(to: z_stream())
    }

    /// zlib's stream record, in the mapping: valid until ``unmap()``.
    var stream: UnsafeMutablePointer<z_stream> {
        (base + Self.counters).assumingMemoryBound(to: z_stream.self)
    }

    /// Points the stream record's allocator at the mapping.
    func install() {
        let stream = self.stream
        stream.pointee.opaque = base
        stream.pointee.zalloc = { opaque, items, itemSize in
            let count = Int(items) * Int(itemSize)
            guard let base = opaque else { return calloc(Int(items), Int(itemSize)) }
            let size = base.load(as: Int.self), used = base.load(fromByteOffset: MemoryLayout<Int>.stride, as: Int.self)
            let rounded = (count + 15) & ~15
            guard used + rounded <= size else { return calloc(Int(items), Int(itemSize)) }
            base.storeBytes(of: used + rounded, toByteOffset: MemoryLayout<Int>.stride, as: Int.self)
            // Fresh anonymous pages are zero, as calloc's are.
            return base + used
        }
        stream.pointee.zfree = { opaque, address in
            guard let address else { return }
            if let base = opaque, address >= base, address < base + base.load(as: Int.self) { return }
            free(address)
        }
    }

    func unmap() { munmap(base, size) }
}
