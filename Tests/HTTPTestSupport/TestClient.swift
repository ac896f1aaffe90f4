import Foundation
import Synchronization
import Logging
import MicroHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Plain-socket HTTP clients for the tests: exact bytes on the wire, no proxies, no retries.
/// Blocking socket calls run on their own threads (`offPool`), never on the cooperative pool
/// the server's handlers need.

public struct ClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs blocking code on a fresh thread and awaits its result.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// How long a test waits before it calls a wait a hang.
///
/// No test measures this: every wait is for something the code under test does (a job queued,
/// a stream counted, a response read), and a busy machine makes it come later, never not at
/// all. The bound is there only so that a real hang fails the run instead of holding it until
/// CI's own limit; it is long enough that load alone never reaches it.
public enum Patience {
    public static let hang: Duration = .seconds(300)
    /// ``hang`` in seconds, for the socket clients' `timeout:` parameters.
    public static let hangSeconds: Double = 300
}

/// Waits until `condition` holds, looking again every few milliseconds; returns whether it
/// held before ``Patience/hang`` (a hang guard, never what a test measures).
///
/// For a state the code under test does not signal (libmicrohttpd's own connection count, a
/// thread the kernel lists): `event` names what the code does that makes it true, so that the
/// poll says what it stands in for. Where the code signals, await that instead
/// (``CountSignal``, `HTTPServer.waitForCounts`).
public func eventually(_ event: String, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Patience.hang
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))  // a poll's pace, not a wait for time to pass
    }
    return condition()
}

/// ``eventually(_:_:)`` for a condition that awaits.
public func eventually(_ event: String, _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Patience.hang
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))  // a poll's pace, not a wait for time to pass
    }
    return await condition()
}

/// A count that code signals and tests await: `signal()` where the event happens (a stream
/// opened, a job started), `await wait(for:)` where the test needs it to have happened.
/// Waiting costs no thread and no clock; ``Patience/hang`` only guards against a hang.
public final class CountSignal: Sendable {
    private struct State {
        var count = 0
        var waiters: [(id: UInt64, predicate: @Sendable (Int) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())

    public init() {}

    public var count: Int { state.withLock { $0.count } }

    /// Adds `delta` (one event, or minus one for an event undone: a stream closed).
    public func signal(_ delta: Int = 1) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.count += delta
            let count = state.count
            var ready: [CheckedContinuation<Bool, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(count) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Waits until the count reaches `target` (at least); `false` only past the hang guard.
    @discardableResult
    public func wait(for target: Int) async -> Bool {
        await wait { $0 >= target }
    }

    /// Waits until `predicate` holds for the count; `false` only past the hang guard.
    public func wait(_ predicate: @escaping @Sendable (Int) -> Bool) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let guardTask = Task { [self] in
            try? await Task.sleep(for: Patience.hang)  // the hang guard only
            expire(id)
        }
        defer { guardTask.cancel() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if predicate(state.count) { return true }
                state.waiters.append((id, predicate, continuation))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    private func expire(_ id: UInt64) {
        let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }
}

public struct TestSocket: Sendable {
    /// The descriptor, shared by every copy of this socket: closing one copy closes them all,
    /// and a second close is a no-op. (Closing a number twice would close whatever socket
    /// another test got that number for in the meantime: every suite shares this process.)
    private let descriptor: Descriptor
    public var fd: Int32 { descriptor.value.load(ordering: .acquiring) }

    final class Descriptor: Sendable {
        let value: Atomic<Int32>
        init(_ fd: Int32) { value = Atomic(fd) }
        /// The descriptor, taken: later calls get -1.
        func take() -> Int32 { value.exchange(-1, ordering: .acquiringAndReleasing) }
    }

    init(fd: Int32) { descriptor = Descriptor(fd) }

    /// Connects to `127.0.0.1:port`; with `from` (a loopback address such as `127.0.0.2`), the
    /// connection comes from that address, as a different client would.
    public static func connect(port: Int, from source: String? = nil) throws -> TestSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                Glibc.close(fd)
                throw ClientError("bind \(source): errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw ClientError("connect: errno \(errno)")
        }
        return TestSocket(fd: fd)
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError("send: errno \(errno)") }
            offset += n
        }
    }

    /// One `recv` of up to 64 KiB; `[]` means the server closed. Throws on timeout.
    public func receive(timeout: Double) throws -> [UInt8] {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(timeout * 1000))
        guard ready > 0 else { throw ClientError("timed out after \(timeout)s waiting for data") }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == ECONNRESET { return [] }
            throw ClientError("recv: errno \(errno)")
        }
        return Array(buffer[0..<n])
    }

    public func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Whether the server has closed the connection: EOF or a reset is waiting (data is not
    /// consumed). Never blocks.
    public var isClosedByPeer: Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        if pfd.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends what it can without blocking; `false` once the connection is broken.
    @discardableResult
    public func trySend(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return n >= 0 || errno == EAGAIN || errno == EWOULDBLOCK
    }

    public func close() {
        let fd = descriptor.take()
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Closes with an RST instead of a FIN (SO_LINGER 0): an abrupt disconnect.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        let fd = descriptor.take()
        guard fd >= 0 else { return }
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    public var text: String { String(decoding: body, as: UTF8.self) }
    public var json: [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: String]) ?? [:]
    }
}

/// Reads HTTP responses from one connection (keep-alive aware).
public struct ResponseReader: Sendable {
    public let socket: TestSocket
    public var buffer: [UInt8] = []
    public var closed = false

    public init(_ socket: TestSocket) { self.socket = socket }

    public mutating func fill(timeout: Double) throws {
        let chunk = try socket.receive(timeout: timeout)
        if chunk.isEmpty { closed = true } else { buffer += chunk }
    }

    public mutating func readHead(timeout: Double) throws -> (Int, [(String, String)]) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ClientError("bad status line: \(head)") }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                return (status, headers)
            }
            if closed { throw ClientError("connection closed before a response (\(buffer.count) bytes)") }
            try fill(timeout: max(0.01, deadline.timeIntervalSinceNow))
        }
    }

    public mutating func readResponse(timeout: Double = Patience.hangSeconds, head: Bool = false) throws -> HTTPResponse {
        let (status, headers) = try readHead(timeout: timeout)
        var response = HTTPResponse(status: status, headers: headers, body: [])
        if head || status == 304 || status == 204 { return response }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            while buffer.count < length {
                if closed { throw ClientError("closed mid-body") }
                try fill(timeout: timeout)
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                while find([13, 10]) == nil {
                    if closed { throw ClientError("closed mid-chunk") }
                    try fill(timeout: timeout)
                }
                let lineEnd = find([13, 10])!
                let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                while buffer.count < lineEnd + 2 + size + 2 {
                    if closed { throw ClientError("closed mid-chunk") }
                    try fill(timeout: timeout)
                }
                response.body += buffer[(lineEnd + 2)..<(lineEnd + 2 + size)]
                buffer.removeFirst(lineEnd + 2 + size + 2)
                if size == 0 { break }
            }
        } else {
            while !closed { try fill(timeout: timeout) }
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Waits for the server to close the connection (EOF or reset).
    public mutating func waitForClose(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed {
            try fill(timeout: max(0.01, deadline.timeIntervalSinceNow))
        }
    }

    /// Removes the next complete chunk of a chunked body from the buffer and returns its bytes
    /// (empty for the last chunk), or `nil` when none is complete yet.
    public mutating func takeChunk() throws -> [UInt8]? {
        guard let lineEnd = find([13, 10]) else { return nil }
        let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
        guard let size = Int(sizeText, radix: 16) else { throw ClientError("bad chunk size \(sizeText)") }
        guard buffer.count >= lineEnd + 2 + size + 2 else { return nil }
        let chunk = Array(buffer[(lineEnd + 2)..<(lineEnd + 2 + size)])
        buffer.removeFirst(lineEnd + 2 + size + 2)
        return chunk
    }

    public func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}

/// Reads server-sent events (raw blocks between blank lines) from a stream's body, after the
/// response head; handles the chunked transfer coding.
public struct EventReader: Sendable {
    public var reader: ResponseReader
    public var text = ""

    /// Connects and sends `GET path`, returning once the response head has arrived.
    public static func open(port: Int, path: String = "/events", headers: [String: String] = [:]) throws -> (EventReader, Int) {
        let socket = try TestSocket.connect(port: port)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try socket.send("GET \(path) HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\(extra)\r\n")
        var reader = ResponseReader(socket)
        let (status, _) = try reader.readHead(timeout: Patience.hangSeconds)
        return (EventReader(reader: reader), status)
    }

    public var socket: TestSocket { reader.socket }

    /// Removes the first complete block (up to a blank line) from decoded stream text.
    public static func takeBlock(_ text: inout String) -> [String]? {
        guard let range = text.range(of: "\n\n") else { return nil }
        let block = String(text[..<range.lowerBound])
        text.removeSubrange(..<range.upperBound)
        return block.components(separatedBy: "\n")
    }

    /// The next block (lines up to a blank line), comments included.
    public mutating func nextBlock(timeout: Double = Patience.hangSeconds) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let block = Self.takeBlock(&text) { return block }
            if reader.closed { throw ClientError("stream ended") }
            try pullChunks(timeout: max(0.01, deadline.timeIntervalSinceNow))
        }
    }

    /// Reads until the server ends the stream; returns whether it ended cleanly (last chunk).
    public mutating func readToEnd(timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !reader.closed {
            if endedCleanly { return true }
            try pullChunks(timeout: max(0.01, deadline.timeIntervalSinceNow))
        }
        return endedCleanly
    }

    private var endedCleanly = false

    /// Decodes the chunks already buffered, reading more only when none is complete.
    private mutating func pullChunks(timeout: Double) throws {
        if try !decodeChunks() {
            try reader.fill(timeout: timeout)
            _ = try decodeChunks()
        }
    }

    private mutating func decodeChunks() throws -> Bool {
        var progressed = false
        while let chunk = try reader.takeChunk() {
            text += String(decoding: chunk, as: UTF8.self)
            progressed = true
            if chunk.isEmpty { endedCleanly = true }
        }
        return progressed
    }
}

// MARK: - Servers

public let quietLogger: Logger = {
    var logger = Logger(label: "MicroHTTPTests")
    logger.logLevel = .critical
    return logger
}()

public func startServer(limits: Limits = Limits(), handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
    let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, limits: limits), logger: quietLogger, handler: handler)
    try server.start()
    return server
}

/// Sends `raw` on a new connection and reads one response.
public func exchange(port: Int, _ raw: String, timeout: Double = Patience.hangSeconds, head: Bool = false, from source: String? = nil) async throws -> HTTPResponse {
    try await exchange(port: port, Array(raw.utf8), timeout: timeout, head: head, from: source)
}

public func exchange(port: Int, _ raw: [UInt8], timeout: Double = Patience.hangSeconds, head: Bool = false, from source: String? = nil) async throws -> HTTPResponse {
    try await offPool {
        let socket = try TestSocket.connect(port: port, from: source)
        defer { socket.close() }
        try socket.send(raw)
        var reader = ResponseReader(socket)
        return try reader.readResponse(timeout: timeout, head: head)
    }
}

public func get(port: Int, _ target: String, headers: [String: String] = [:], timeout: Double = Patience.hangSeconds, from source: String? = nil) async throws -> HTTPResponse {
    let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
    return try await exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\(extra)\r\n",
                              timeout: timeout, from: source)
}

public func post(port: Int, _ target: String, body: [UInt8], headers: [String: String] = [:]) async throws -> HTTPResponse {
    let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
    let head = "POST \(target) HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\(extra)\r\n"
    return try await exchange(port: port, Array(head.utf8) + body)
}
