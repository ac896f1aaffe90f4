// The floor of a keystroke (issue 37): the least the server must do to turn a typed letter
// into the bytes of its changeset event on the client's socket, measured alone.
//
//   python3 Benchmarks/web/keystroke_cpu.py --capture .build-bench/keystroke-events.bin \
//       --build main=.build/release/diffable-web
//   make bench-floor   (swift run -c release --package-path Benchmarks KeystrokeFloor .build-bench/keystroke-events.bin)
//
// Input: the changeset events one session received for keystroke_latency.py's typed words (10,000
// mountains, 1024×768), captured from a real server: one cycle of the words, in order, each the
// whole SSE block (`event:`, `id:`, `data:` line). Each event is split where the identifiers
// start (`,"deleted":`): before is the session's own head (version, status, view state), after
// is what every session making the same step shares (identifiers, the window's cells with their
// HTML, as `TransitionCache` keeps them).
//
// Per keystroke the floor does, and nothing else:
//   1. looks up the shared step (a hash table under a lock, keyed by the step);
//   2. builds the event: the SSE frame (`event: changeset`, `id:` with a fresh number, `data: `),
//      the head, a copy of the shared bytes (the window's new cells with their HTML);
//   3. with gzip, compresses it with the stream's own deflate state (raw deflate, the server's
//      settings: level 3 with deflateTune(4, 6, 64, 16), 32 KiB window, memLevel 5; CRC-32 for the
//      gzip trailer; a sync flush);
//   4. writes it to a TCP socket on loopback (TCP_NODELAY; a thread on the other end drains it).
//
// Floors: plain; gzip with the whole event through the stream's state (step 3 as the issue
// states it); and gzip as the server splices: the identifiers, when long, deflated once per step
// (not timed: every session making the step shares them) and copied in, the stream's compressor
// started afresh after them, the rest through the stream's state. `--splice-from N` sets the
// identifiers' length from which they are spliced (4 KiB, the server's since session 24; 16 KiB
// in session 23; 64 KiB before) and `--splice-level` their level (4; 1 before), `--dictionary`
// what the stream's compressor is given after a splice (0: a fresh start; 32768: the spliced
// bytes' last 32 KiB, as before). `--explore` adds other settings (levels, thresholds).
//
// The floors above write to a socket a thread drains as fast as it can: back to back, the
// kernel's work per write is a throughput's, and no keystroke arrives. The last two rows are a
// keystroke as it arrives (`Wire.roundTrip`), closed loop as the keystroke benchmark's client
// types: the keystroke's POST is read from its own connection (one `recv`, the head and the
// body's length found), the event is made and written as above, the POST is answered (a fixed
// 200), and the client reads the answer and the whole event before it types again. What a
// server cannot avoid per keystroke is all there: the request's `recv`, the answer's `send`,
// the event's `send` waking a reader that waits, and the wait for the next keystroke.
//
// Reported: microseconds of this thread's CPU per keystroke (CLOCK_THREAD_CPUTIME_ID, which
// includes the kernel's time for the write), the median over rounds, with the mean bytes per
// event written. The keystroke benchmark's "server CPU per keystroke" divided by this is
// "today's keystroke as a multiple of the floor".
import CZlibFloor
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") && Int($0) == nil }
let quick = CommandLine.arguments.contains("--quick")
guard let path = arguments.first, let file = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("usage: KeystrokeFloor EVENTS-FILE [--quick] (capture it with Benchmarks/web/keystroke_cpu.py --capture)\n".utf8))
    exit(2)
}

/// One step as every session making it shares it.
struct Step: Sendable {
    let head: [UInt8]
    let shared: [UInt8]
    /// Where the window's part starts in `shared` (`,"contentSize":`): before it, the ids.
    let windowAt: Int
}

/// The captured events: 4-byte little-endian length, then the SSE block.
func readEvents(_ data: Data) -> [Step] {
    let bytes = [UInt8](data)
    var steps: [Step] = []
    var at = 0
    let dataMarker = Array("data: ".utf8), idsMarker = Array(",\"deleted\":".utf8)
    func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i <= haystack.endIndex - needle.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
    while at + 4 <= bytes.count {
        let count = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        at += 4
        guard count >= 0, at + count <= bytes.count else { break }
        let block = bytes[at..<(at + count)]
        at += count
        guard let dataAt = find(dataMarker, in: block) else { continue }
        // The data line, without the blank line that ends the block.
        var end = block.endIndex
        while end > dataAt, block[end - 1] == 10 { end -= 1 }
        let payload = block[(dataAt + dataMarker.count)..<end]
        let split = find(idsMarker, in: payload) ?? payload.startIndex
        let shared = Array(payload[split..<payload.endIndex])
        let windowAt = find(Array(",\"contentSize\":".utf8), in: shared[...]) ?? shared.count
        steps.append(Step(head: Array(payload[payload.startIndex..<split]), shared: shared, windowAt: windowAt))
    }
    return steps
}

let steps = readEvents(file)
guard !steps.isEmpty else {
    FileHandle.standardError.write(Data("no events in \(path)\n".utf8))
    exit(2)
}

/// The shared steps, as a cache keyed by step holds them.
let table = Mutex<[Int: Step]>(Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($0.offset, $0.element) }))

/// A loopback TCP connection: the writer's end, and a thread draining the other.
func connectedSocket() -> Int32 {
    let (server, client) = socketPair()
    let drain = Thread {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.withUnsafeMutableBytes({ read(client, $0.baseAddress, $0.count) }) > 0 {}
        close(client)
    }
    drain.start()
    return server
}

/// Where a floor writes its events. `drain`: a loopback socket a thread drains as fast as it
/// can (the floor as issue 37 states it: the event only). `roundTrip`: a keystroke as it
/// arrives, closed loop as the keystroke benchmark's client types: a client thread sends the
/// keystroke's POST (the benchmark's request) on one loopback connection; the floor reads it
/// (one `recv`, the head's end and Content-Length found), makes and writes the event on the
/// other connection, then answers the POST (a fixed 200 with a small JSON body); the client
/// reads the answer and the whole event before it sends the next keystroke. The floor's
/// thread blocks in `recv` between keystrokes, as a server's does in `epoll_wait`.
final class Wire: @unchecked Sendable {
    let events: Int32
    private let requests: Int32?
    private let written = Atomic<Int>(0)
    private var total = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)
    static let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"version\":1234}".utf8)

    /// The issue's floor: events only, drained.
    static func drain() -> Wire { Wire(events: connectedSocket(), requests: nil) }

    /// The floor of a keystroke as it arrives (see the type).
    static func roundTrip() -> Wire {
        let (events, eventClient) = socketPair()
        let (requests, requestClient) = socketPair()
        let wire = Wire(events: events, requests: requests)
        let body = Array(#"{"query": "kan", "seq": 1234}"#.utf8)
        let request = Array("POST /demos/mountains/actions/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nCookie: dw_session=0da598a33aa8c1f2e4b5a6d7c8e9f0a1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var received = 0
            func read(_ fd: Int32) -> Int { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            loop: while request.withUnsafeBytes({ write(requestClient, $0.baseAddress, $0.count) }) == request.count {
                var answered = 0
                while answered < Wire.answer.count {
                    let n = read(requestClient)
                    guard n > 0 else { break loop }
                    answered += n
                }
                let target = wire.written.load(ordering: .acquiring)
                while received < target {
                    let n = read(eventClient)
                    guard n > 0 else { break loop }
                    received += n
                }
            }
            Glibc.close(requestClient)
            Glibc.close(eventClient)
        }.start()
        return wire
    }

    private init(events: Int32, requests: Int32?) {
        self.events = events
        self.requests = requests
    }

    /// Before a keystroke: its request, read and parsed.
    func awaitKeystroke() {
        guard let requests else { return }
        var have = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(requests, $0.baseAddress! + have, $0.count - have, 0) }
            guard n > 0 else { return }
            have += n
            // The head's end, then the body's length.
            guard let end = buffer[0..<have].firstRange(of: [13, 10, 13, 10]) else { continue }
            let head = String(decoding: buffer[0..<end.lowerBound], as: UTF8.self).lowercased()
            let length = head.range(of: "content-length: ").flatMap { Int(head[$0.upperBound...].prefix { $0.isNumber }) } ?? 0
            if have >= end.upperBound + length { return }
        }
    }

    /// The event's bytes onto its socket; then, on a round trip, the answer to the request.
    func send(_ out: [UInt8]) -> Int {
        var sent = 0
        while sent < out.count {
            let n = out.withUnsafeBytes { Glibc.send(events, $0.baseAddress! + sent, out.count - sent, 0) }
            guard n > 0 else { break }
            sent += n
        }
        total += sent
        if let requests {
            written.store(total, ordering: .releasing)
            _ = Wire.answer.withUnsafeBytes { Glibc.send(requests, $0.baseAddress, $0.count, 0) }
        }
        return sent
    }

    func close() {
        Glibc.close(events)
        if let requests { Glibc.close(requests) }
    }
}

/// A loopback TCP connection (TCP_NODELAY on both ends): the server's end and the client's.
func socketPair() -> (server: Int32, client: Int32) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = bind(listener, $0, length) }
    }
    listen(listener, 1)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
    }
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = connect(client, $0, length) }
    }
    let server = accept(listener, nil, nil)
    close(listener)
    var on: Int32 = 1
    for fd in [server, client] { setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
    return (server, client)
}

func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// One stream's deflate state, as the server keeps it (raw deflate; the caller frames gzip).
final class Deflater {
    var stream = z_stream()
    var crc: UInt = 0
    var level: Int32
    init(level: Int32, memoryLevel: Int32 = 5) {
        self.level = level
        precondition(czlib_floor_deflate_init_raw(&stream, level, 15, memoryLevel) == Z_OK)
    }
    deinit { deflateEnd(&stream) }

    func compress(_ input: [UInt8], into output: inout [UInt8]) {
        input.withUnsafeBufferPointer { input in
            crc = crc32_z(crc, input.baseAddress, input.count)
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            var room = input.count / 2 + 256
            output.removeAll(keepingCapacity: true)
            while true {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: room))
                let left = output.withUnsafeMutableBufferPointer { buffer -> UInt32 in
                    stream.next_out = buffer.baseAddress! + start
                    stream.avail_out = UInt32(room)
                    _ = deflate(&stream, Z_SYNC_FLUSH)
                    return stream.avail_out
                }
                output.removeLast(Int(left))
                if left > 0 { break }
                room *= 2
            }
        }
    }
}

/// The server's scheme (`EventStream.send(event:id:data:)`): the ids part, when it is at least
/// 64 KiB, is deflated once per step (on a fresh dictionary, at `spliceLevel`) and spliced in
/// (after a sync flush; the CRCs combined; the stream's dictionary set to the spliced bytes'
/// last `dictionary` bytes); the rest goes through the stream's deflate state.
func runSpliced(cycles: Int, level: Int32, spliceLevel: Int32, dictionary: Int, largeLevel: Int32? = nil, largeFrom: Int = .max,
                spliceFrom: Int = 65_536, tune: (Int32, Int32, Int32, Int32)? = nil, wire: Wire) -> (Double, Double) {
    // Deflated once per step (not timed: shared by every session making the step).
    var deflatedIDs: [Int: [UInt8]] = [:]
    for (key, step) in steps.enumerated() where step.windowAt >= spliceFrom {
        let alone = Deflater(level: spliceLevel, memoryLevel: 8)
        var out: [UInt8] = []
        alone.compress(Array(step.shared[0..<step.windowAt]), into: &out)
        deflatedIDs[key] = out
    }
    let deflater = Deflater(level: level)
    func retune() { if let tune { _ = deflateTune(&deflater.stream, tune.0, tune.1, tune.2, tune.3) } }
    retune()
    var event: [UInt8] = []
    var compressed: [UInt8] = []
    var written = 0
    var version = 1_000
    let frame = Array("event: changeset\nid: ".utf8), data = Array("\ndata: ".utf8)
    let started = threadCPUNanoseconds()
    for _ in 0..<cycles {
        for key in 0..<steps.count {
            wire.awaitKeystroke()
            guard let step = table.withLock({ $0[key] }) else { continue }
            version += 1
            event.removeAll(keepingCapacity: true)
            event.append(contentsOf: frame)
            event.append(contentsOf: "e1-\(version)".utf8)
            event.append(contentsOf: data)
            event.append(contentsOf: step.head)
            var out: [UInt8] = []
            if let largeLevel {
                // The level by what goes through the stream's state in this event.
                let inStream = step.head.count + step.shared.count - (deflatedIDs[key] == nil ? 0 : step.windowAt)
                let wanted = inStream >= largeFrom ? largeLevel : level
                if wanted != deflater.level {
                    var scratch = [UInt8](repeating: 0, count: 64)
                    scratch.withUnsafeMutableBufferPointer { buffer in
                        deflater.stream.next_out = buffer.baseAddress
                        deflater.stream.avail_out = 64
                        _ = deflateParams(&deflater.stream, wanted, Z_DEFAULT_STRATEGY)
                        out.append(contentsOf: buffer[0..<(64 - Int(deflater.stream.avail_out))])
                    }
                    deflater.level = wanted
                }
            }
            if let ids = deflatedIDs[key] {
                deflater.compress(event, into: &compressed)
                out.append(contentsOf: compressed)
                out.append(contentsOf: ids)
                let spliced = step.shared[0..<step.windowAt]
                deflater.crc = crc32_combine(deflater.crc, crc32_z(0, Array(spliced), spliced.count), spliced.count)
                // A dictionary shorter than the window must not sit on top of the old history
                // (the client's window has the spliced bytes there): start afresh first.
                let suffix = Array(spliced.suffix(dictionary))
                if suffix.count < 32_768 { _ = deflateReset(&deflater.stream); retune() }
                if !suffix.isEmpty { _ = deflateSetDictionary(&deflater.stream, suffix, UInt32(suffix.count)) }
                event.removeAll(keepingCapacity: true)
                event.append(contentsOf: step.shared[step.windowAt...])
            } else {
                event.append(contentsOf: step.shared)
            }
            event.append(contentsOf: [10, 10])
            deflater.compress(event, into: &compressed)
            out.append(contentsOf: compressed)
            written += wire.send(out)
        }
    }
    let elapsed = threadCPUNanoseconds() - started
    let keystrokes = Double(cycles * steps.count)
    return (Double(elapsed) / keystrokes, Double(written) / keystrokes)
}

/// Sends every captured step `cycles` times; returns CPU nanoseconds per keystroke and bytes
/// written per keystroke.
func run(cycles: Int, level: Int32?, wire: Wire) -> (Double, Double) {
    let deflater = level.map { Deflater(level: $0) }
    var event: [UInt8] = []
    var compressed: [UInt8] = []
    var written = 0
    var version = 1_000
    let frame = Array("event: changeset\nid: ".utf8), data = Array("\ndata: ".utf8)
    let started = threadCPUNanoseconds()
    for _ in 0..<cycles {
        for key in 0..<steps.count {
            // 0. With a round trip, the keystroke's request.
            wire.awaitKeystroke()
            // 1. The shared step.
            guard let step = table.withLock({ $0[key] }) else { continue }
            // 2. The event: frame, the session's head, the shared bytes copied in.
            version += 1
            event.removeAll(keepingCapacity: true)
            event.reserveCapacity(step.head.count + step.shared.count + 64)
            event.append(contentsOf: frame)
            event.append(contentsOf: "e1-\(version)".utf8)
            event.append(contentsOf: data)
            event.append(contentsOf: step.head)
            event.append(contentsOf: step.shared)
            event.append(contentsOf: [10, 10])
            // 3. Compressed with the stream's state.
            let out: [UInt8]
            if let deflater {
                deflater.compress(event, into: &compressed)
                out = compressed
            } else {
                out = event
            }
            // 4. Written.
            written += wire.send(out)
        }
    }
    let elapsed = threadCPUNanoseconds() - started
    let keystrokes = Double(cycles * steps.count)
    return (Double(elapsed) / keystrokes, Double(written) / keystrokes)
}

let wire = Wire.drain()
let trip = Wire.roundTrip()
let rounds = quick ? 3 : 11
let cycles = quick ? 5 : 30
let plainBytes = steps.reduce(0) { $0 + $1.head.count + $1.shared.count } / steps.count
print("Keystroke floor: \(steps.count) captured events (mean \(plainBytes) bytes of data), \(cycles) cycles × \(rounds) rounds")
_ = run(cycles: 2, level: nil, wire: wire)
_ = run(cycles: 2, level: 3, wire: wire)
_ = runSpliced(cycles: 2, level: 3, spliceLevel: 1, dictionary: 32_768, wire: wire)
_ = run(cycles: 2, level: nil, wire: trip)
var results: [String: [(Double, Double)]] = [:]
let explore = CommandLine.arguments.contains("--explore")
func option(_ name: String, _ fallback: Int) -> Int {
    guard let at = CommandLine.arguments.firstIndex(of: name), at + 1 < CommandLine.arguments.count else { return fallback }
    return Int(CommandLine.arguments[at + 1]) ?? fallback
}
let spliceFrom = option("--splice-from", 4_096), spliceLevel = Int32(option("--splice-level", 4)), dictionary = option("--dictionary", 0)
var cases: [(String, () -> (Double, Double))] = [
    ("plain", { run(cycles: cycles, level: nil, wire: wire) }),
    ("gzip, the whole event through the stream's state, level 3", { run(cycles: cycles, level: 3, wire: wire) }),
    ("gzip, ids of 64 KiB+ spliced (level 1, once per step), then a 32 KiB dictionary, the rest at level 3: the scheme before issue 37",
     { runSpliced(cycles: cycles, level: 3, spliceLevel: 1, dictionary: 32_768, wire: wire) }),
    ("gzip, ids of 16 KiB+ spliced (level 4), then dictionary 0, the rest at level 3 untuned: the scheme before session 23",
     { runSpliced(cycles: cycles, level: 3, spliceLevel: 4, dictionary: 0, spliceFrom: 16_384, wire: wire) }),
    ("gzip, ids of 16 KiB+ spliced (level 4), the rest at level 3 tuned (4, 6, 64, 16): session 23's scheme",
     { runSpliced(cycles: cycles, level: 3, spliceLevel: 4, dictionary: 0, spliceFrom: 16_384, tune: (4, 6, 64, 16), wire: wire) }),
    ("gzip as the server writes: ids of \(spliceFrom / 1024) KiB+ spliced (level \(spliceLevel)), then dictionary \(dictionary), the rest at level 3 tuned (4, 6, 64, 16)",
     { runSpliced(cycles: cycles, level: 3, spliceLevel: spliceLevel, dictionary: dictionary, spliceFrom: spliceFrom, tune: (4, 6, 64, 16), wire: wire) }),
    ("plain, a keystroke as it arrives: its request read and answered, closed loop",
     { run(cycles: cycles, level: nil, wire: trip) }),
    ("gzip as the server writes, a keystroke as it arrives: its request read and answered, closed loop",
     { runSpliced(cycles: cycles, level: 3, spliceLevel: spliceLevel, dictionary: dictionary, spliceFrom: spliceFrom, tune: (4, 6, 64, 16), wire: trip) }),
]
if explore {
    for (level, splice, dictionary) in [(Int32(1), Int32(4), 32_768), (1, 4, 0), (3, 4, 32_768), (3, 4, 0)] {
        cases.append(("spliced: stream level \(level), splice level \(splice), dictionary \(dictionary)",
                      { runSpliced(cycles: cycles, level: level, spliceLevel: splice, dictionary: dictionary, wire: wire) }))
    }
    for (large, from, dictionary) in [(Int32(1), 4_096, 32_768), (1, 8_192, 32_768), (1, 8_192, 0), (1, 16_384, 0), (2, 8_192, 0), (1, 12_288, 0)] {
        cases.append(("spliced (level 4): level 3, level \(large) from \(from) B, dictionary \(dictionary)",
                      { runSpliced(cycles: cycles, level: 3, spliceLevel: 4, dictionary: dictionary, largeLevel: large, largeFrom: from, wire: wire) }))
    }
    cases.append(("gzip, whole event, level 1", { run(cycles: cycles, level: 1, wire: wire) }))
    for tune in [(Int32(4), Int32(6), Int32(32), Int32(32)), (4, 6, 64, 16), (4, 6, 64, 8), (4, 6, 128, 16), (4, 6, 258, 16), (4, 6, 128, 8), (4, 6, 64, 12), (8, 6, 64, 16), (4, 5, 64, 16)] {
        cases.append(("tuned \(tune) (good, insert, nice, chain), ids 16 KiB+ spliced",
                      { runSpliced(cycles: cycles, level: 3, spliceLevel: 4, dictionary: 0, spliceFrom: 16_384, tune: tune, wire: wire) }))
    }
}
for _ in 0..<rounds {
    for (name, body) in cases { results[name, default: []].append(body()) }
}
print("| floor | µs CPU per keystroke (median of rounds) | bytes per event written |")
print("|---|---:|---:|")
for (name, _) in cases {
    let samples = results[name] ?? []
    let times = samples.map(\.0).sorted()
    print("| \(name) | \(String(format: "%.1f", times[times.count / 2] / 1_000)) | \(String(format: "%.0f", samples.first?.1 ?? 0)) |")
}
wire.close()
trip.close()
