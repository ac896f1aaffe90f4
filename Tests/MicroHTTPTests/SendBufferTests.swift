#if canImport(Glibc)
import Glibc
#endif
import SeededRandom
import Testing
@testable import MicroHTTP

/// A stream's unsent bytes are held in chunks that are freed as the client takes them, and what
/// the buffer says it holds is what it allocated: the stream budget counts real memory.
@Suite("Send buffer")
struct SendBufferTests {
    @Test("held bytes are the chunks' allocation, and chunks are freed as they are read")
    func heldBytesFollowReads() {
        var buffer = SendBuffer()
        let event = [UInt8](repeating: 7, count: 16 * 1024)
        for _ in 0..<64 { buffer.append(event) }
        #expect(buffer.count == 64 * 16 * 1024)
        #expect(buffer.heldBytes >= buffer.count)
        #expect(buffer.heldBytes <= buffer.count + SendBuffer.maximumChunk, "no capacity doubled: \(buffer.heldBytes) for \(buffer.count)")
        var sink = [UInt8](repeating: 0, count: 700 * 1024)
        let read = sink.withUnsafeMutableBytes { buffer.read(into: $0.baseAddress!, capacity: 700 * 1024) }
        #expect(read == 700 * 1024)
        #expect(buffer.count == 324 * 1024)
        // What was read is freed (an array kept its sent prefix until the next send).
        #expect(buffer.heldBytes <= buffer.count + 2 * SendBuffer.maximumChunk, "\(buffer.heldBytes) held for \(buffer.count) unsent")
        _ = sink.withUnsafeMutableBytes { buffer.read(into: $0.baseAddress!, capacity: 700 * 1024) }
        #expect(buffer.isEmpty && buffer.heldBytes == 0, "an idle stream holds nothing")
    }

    /// Byte n of a stream is n % 251: any byte lost, repeated or reordered shows.
    static let pattern = [UInt8](unsafeUninitializedCapacity: 251 + 300_000) { bytes, count in
        for i in 0..<bytes.count { bytes[i] = UInt8(i % 251) }
        count = bytes.count
    }

    @Test("bytes come out in order, whatever the sizes of appends and reads", arguments: [1, 2, 3] as [UInt64])
    func order(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let pattern = Self.pattern
        var buffer = SendBuffer()
        var appended = 0, received = 0
        var intact = true
        func drain(_ want: Int) {
            var sink = [UInt8](repeating: 0, count: want)
            let n = sink.withUnsafeMutableBytes { buffer.read(into: $0.baseAddress!, capacity: want) }
            let start = received % 251
            // memcmp: this suite runs beside the socket suites, and a debug build's
            // element-by-element comparison would take their threads for seconds.
            let same = sink.withUnsafeBytes { got in pattern.withUnsafeBytes { memcmp(got.baseAddress!, $0.baseAddress! + start, n) == 0 } }
            intact = intact && same
            received += n
        }
        for _ in 0..<150 {
            let size = Int(rng.next() % 4 == 0 ? rng.next() % 300_000 : rng.next() % 3_000)
            let start = appended % 251
            pattern[start..<(start + size)].withUnsafeBytes { _ = buffer.append($0) }
            appended += size
            drain(Int(rng.next() % 200_000))
            #expect(buffer.count == appended - received)
            #expect(buffer.heldBytes >= buffer.count)
        }
        while !buffer.isEmpty { drain(300_000) }
        #expect(intact, "the bytes read are the bytes appended, in order")
        #expect(received == appended)
        #expect(buffer.heldBytes == 0)
    }

    @Test("a client that falls behind gets full chunks, each a mapping of its own (freed memory leaves the process)")
    func backlogChunksAreMappings() {
        var buffer = SendBuffer()
        let event = [UInt8](repeating: 1, count: 20 * 1024)
        for _ in 0..<100 { buffer.append(event) }
        // 2 MB of backlog: after the first few event-sized chunks, every chunk is a full one.
        #expect(buffer.chunkSizes.suffix(10).allSatisfy { $0 >= SendBuffer.mappedChunk })
        #expect(SendChunk(capacity: SendBuffer.maximumChunk, mapped: true)?.isMapped == true)
        #expect(buffer.heldBytes <= buffer.count + SendBuffer.maximumChunk)
    }
}
