import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// When the client of a stream the server writes itself stopped taking bytes. The stream
/// joins the server's ``StalledStreams`` when a send does not go whole and leaves it when bytes
/// go out again, so the server's once-a-tick sweep looks only at stalled streams (a walk of
/// every connection's entry cost half the idle CPU at 3,000 streams).
final class SendProgress: Sendable {
    let token: UInt64
    private let stalledStreams: StalledStreams
    /// 0: the client takes what is sent.
    private let stalledSince = Atomic<UInt64>(0)

    init(token: UInt64, stalledStreams: StalledStreams) {
        self.token = token
        self.stalledStreams = stalledStreams
    }

    /// A send did not go whole: the clock starts, unless it runs already.
    func stalled(_ stream: EventStream) {
        let now = monotonicNanoseconds()
        if stalledSince.compareExchange(expected: 0, desired: now, ordering: .relaxed).exchanged {
            stalledStreams.add(stream, token: token, since: now)
        }
    }

    /// Bytes went out.
    func moved() {
        if stalledSince.load(ordering: .relaxed) != 0 {
            stalledSince.store(0, ordering: .relaxed)
            stalledStreams.remove(token: token)
        }
    }
}

/// The streams whose clients take no bytes now, by connection id, with when they stopped.
final class StalledStreams: Sendable {
    private let streams = Mutex<[UInt64: (since: UInt64, stream: EventStream)]>([:])

    func add(_ stream: EventStream, token: UInt64, since: UInt64) {
        streams.withLock { $0[token] = (since, stream) }
    }

    func remove(token: UInt64) {
        streams.withLock { _ = $0.removeValue(forKey: token) }
    }

    /// The streams stalled for longer than `limit` nanoseconds at `now`.
    /// - Complexity: O(stalled streams).
    func overdue(now: UInt64, limit: UInt64) -> [EventStream] {
        // `now` is read before the lock: a stream that stalled since then is not overdue.
        streams.withLock { $0.values.filter { now > $0.since && now - $0.since > limit }.map(\.stream) }
    }
}

/// An event stream's socket once it is taken from libmicrohttpd (see
/// `LibMicroHTTPD+StreamHandoff.swift`): the server writes the response head and the body
/// itself, and libmicrohttpd has freed the connection's memory pool and its `MHD_Response`.
///
/// What is queued stays in the stream's ``SendBuffer``; a write takes a frame of at most
/// ``EventStream/ownFrameBytes`` from it (one chunk of the chunked body, or the bytes as they
/// are for an HTTP/1.0 client) and sends what the kernel takes, without blocking. The rest of
/// the frame waits for the socket to have room: the server's watcher reports that (`EPOLLOUT`,
/// edge-triggered) and calls ``EventStream/ownSocketWritable()``. An idle stream holds no
/// frame. The socket is closed by the stream (never shut down first by anyone else): once a
/// closing stream has sent everything (the chunked terminator last), or at once when it is
/// aborted; closing it also takes it out of the watcher's epoll set.
struct OwnSocket {
    /// Ours, or -1 once closed.
    var socket: Int32
    /// The stream's connection id in the server's registry and the watcher.
    let token: UInt64
    /// When the client last stopped taking bytes (read by the server's sweep).
    let progress: SendProgress
    /// Bytes taken from the buffer and not yet all sent (the head, a frame, the terminator).
    var frame: [UInt8]
    var sent = 0
    /// The stream's `open` closure has run: nothing is written before (the client sees the
    /// head once the stream is open, as when libmicrohttpd sent it after the access handler).
    var started = false
    /// The chunked terminator is in `frame` (or sent).
    var terminated = false
    /// The socket is closed and the server is not yet told (``EventStream/reportOwnSocketEnd()``).
    var endUnreported = false
    /// Tells the server the stream's socket is closed (it forgets the connection and finishes
    /// the stream).
    let ended: @Sendable (EventStream, UInt64) -> Void

    var isIdle: Bool { sent >= frame.count }
}

extension EventStream {
    /// The most one frame takes from the buffer (a chunk of the chunked body).
    static let ownFrameBytes = 16 * 1024

    /// From now on the server writes `socket` itself: `head` (the response head) goes first,
    /// then what is queued, once ``startOwnSocket()`` is called (after the stream's `open`
    /// closure). Called once, on libmicrohttpd's thread. `ended` is called (outside the lock)
    /// once the socket is closed.
    func takeSocket(_ taken: OwnSocketTaken, head: [UInt8], ended: @escaping @Sendable (EventStream, UInt64) -> Void) {
        state.withLock { s in
            s.own = OwnSocket(socket: taken.socket, token: taken.token, progress: taken.progress, frame: head, ended: ended)
            // libmicrohttpd's suspension is over (its connection is handed a response of its own).
            s.suspended = false
        }
    }

    /// The stream's `open` closure has run: the head goes out, then what is queued.
    func startOwnSocket() {
        state.withLock { s in
            s.own?.started = true
            writeOwnSocket(&s)
        }
        reportOwnSocketEnd()
    }

    /// Whether the server writes this stream's socket itself.
    var ownsSocket: Bool { state.withLock { $0.own != nil } }

    /// The watcher saw room to write on the stream's socket.
    func ownSocketWritable() {
        state.withLock { writeOwnSocket(&$0) }
        reportOwnSocketEnd()
    }

    /// Sends what it can of the frame and the buffer, without blocking; ends the stream's socket
    /// as its phase says (aborting: now; draining: once all is sent). Under the lock.
    func writeOwnSocket(_ s: inout State) {
        guard var own = s.own, own.socket >= 0 else { return }
        // Moved out while it is worked on, so that the frame is not copied when it changes.
        s.own = nil
        defer {
            s.own = own
            recharge(&s)
        }
        switch s.phase {
        case .aborting:
            // Cut (a slow reader, the memory budget) or failed: reset, so that the kernel drops
            // what the client never took at once, rather than keep the connection open (and its
            // buffers charged) behind a window the client never opens.
            closeSocket(of: &own, reset: true)
            return
        case .finished:
            closeSocket(of: &own)
            return
        case .open, .draining:
            // Nothing goes out before the stream's `open` closure has run.
            guard own.started else { return }
        }
        while true {
            if own.isIdle {
                own.frame = []
                own.sent = 0
                if !s.pending.isEmpty {
                    own.frame = nextFrame(&s)
                } else if case .draining = s.phase {
                    if own.terminated || !chunked {
                        s.ended = true
                        closeSocket(of: &own)
                        return
                    }
                    own.frame = Array("0\r\n\r\n".utf8)
                    own.terminated = true
                } else {
                    return
                }
            }
            let result = own.frame.withUnsafeBytes { bytes in
                Glibc.send(own.socket, bytes.baseAddress.map { $0 + own.sent }, bytes.count - own.sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if result > 0 {
                own.sent += result
                own.progress.moved()
            } else if result < 0 && errno == EINTR {
                continue
            } else if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The watcher reports room again (edge-triggered); the sweep ends a stream whose
                // client takes nothing for the idle timeout.
                own.progress.stalled(self)
                return
            } else {
                // The client is gone (reset, or the socket failed).
                s.phase = .aborting(.clientDisconnected)
                s.encoder = nil
                dropPending(&s)
                closeSocket(of: &own)
                return
            }
        }
    }

    /// An event straight from its bytes: on a socket the server writes itself, open, started,
    /// with nothing queued and no frame on its way, `parts` (`size` bytes in all) go out as one
    /// chunk of the body in one `sendmsg`, from where they are. Only what the kernel does not
    /// take is copied, into the buffer, marked as the rest of a chunk already framed
    /// (`State.unframed`): it goes out as it is, freed chunk by chunk as the client takes it,
    /// before anything queued after it. Returns `nil` (nothing sent) when the stream cannot
    /// take the event this way: the caller queues it; `false` when there was no memory for the
    /// rest (the stream is ended, as ``fail(_:_:)`` does). Under the lock.
    ///
    /// Queued, a plain 37 KB keystroke event was copied twice (into the buffer, then frame by
    /// frame out of it, into fresh pages each time) and went out as three 16 KiB frames, three
    /// `send`s (issue 37).
    func sendDirect(_ s: inout State, _ parts: [[UInt8]], size: Int) -> Bool? {
        guard size > 0, case .open = s.phase, s.pending.isEmpty, var own = s.own, own.socket >= 0, own.started, own.isIdle else {
            return nil
        }
        s.own = nil
        defer {
            s.own = own
            recharge(&s)
        }
        // The chunk's size line and its end (none for an HTTP/1.0 client's body), then the parts:
        // pinned where they are, no array made for them (a keystroke made seven).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { framing in
            var head = 0
            if chunked {
                for byte in String(size, radix: 16).utf8 where head < 16 {
                    framing[head] = byte
                    head += 1
                }
                framing[head] = 13
                framing[head + 1] = 10
                head += 2
                framing[18] = 13
                framing[19] = 10
            }
            let base = UnsafeRawPointer(framing.baseAddress)
            let ending = chunked ? 2 : 0
            let sizeLine = UnsafeRawBufferPointer(start: base, count: head), end = UnsafeRawBufferPointer(start: base.map { $0 + 18 }, count: ending)
            return Self.withPieces(sizeLine, parts, end) { pieces in send(pieces, total: head + size + ending, &s, &own) }
        }
    }

    /// `sendDirect`'s write: `pieces` (`total` bytes) in one `sendmsg`; the rest into the buffer.
    private func send(_ pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>, total: Int, _ s: inout State, _ own: inout OwnSocket) -> Bool {
        var result: Int
        repeat {
            result = withUnsafeTemporaryAllocation(of: iovec.self, capacity: pieces.count) { vectors in
                for (index, piece) in pieces.enumerated() {
                    vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
                }
                var message = msghdr()
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = vectors.count
                return Glibc.sendmsg(own.socket, &message, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
        } while result < 0 && errno == EINTR
        if result < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
            // The client is gone (reset, or the socket failed).
            s.phase = .aborting(.clientDisconnected)
            s.encoder = nil
            dropPending(&s)
            closeSocket(of: &own)
            return true
        }
        let sent = max(0, result)
        if sent > 0 { own.progress.moved() }
        guard sent < total else { return true }
        // The rest waits for room (the watcher reports it, edge-triggered).
        var skip = sent
        for piece in pieces {
            guard skip < piece.count else {
                skip -= piece.count
                continue
            }
            // No memory: the stream cannot go on (the client reconnects).
            guard s.pending.append(UnsafeRawBufferPointer(rebasing: piece[skip...])) else { return fail(&s) }
            skip = 0
        }
        s.unframed = total - sent
        own.progress.stalled(self)
        return true
    }

    /// `body` with `first`, each of `arrays` and `last`, in order, pinned during the call.
    private static func withPieces<R>(_ first: UnsafeRawBufferPointer, _ arrays: [[UInt8]], _ last: UnsafeRawBufferPointer,
                                      _ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: arrays.count + 2) { pieces in
            pieces[0] = first
            pieces[arrays.count + 1] = last
            func nest(_ index: Int) -> R {
                guard index < arrays.count else { return body(UnsafeBufferPointer(pieces)) }
                return arrays[index].withUnsafeBytes { bytes in
                    pieces[index + 1] = bytes
                    return nest(index + 1)
                }
            }
            return nest(0)
        }
    }

    /// Takes the next frame from the buffer: at most `ownFrameBytes`, chunk-framed when the
    /// body is chunked. Under the lock.
    private func nextFrame(_ s: inout State) -> [UInt8] {
        if s.unframed > 0 {
            // The rest of a chunk sent straight (``sendDirect(_:_:size:)``): as it is.
            let size = min(s.unframed, Self.ownFrameBytes)
            var frame = [UInt8](repeating: 0, count: size)
            let read = frame.withUnsafeMutableBytes { bytes in bytes.baseAddress.map { s.pending.read(into: $0, capacity: size) } ?? 0 }
            s.unframed -= read
            recharge(&s)
            return read == size ? frame : Array(frame[0..<read])
        }
        let size = min(s.pending.count, Self.ownFrameBytes)
        let prefix = chunked ? Array((String(size, radix: 16) + "\r\n").utf8) : []
        let suffix: [UInt8] = chunked ? [13, 10] : []
        var frame = [UInt8](repeating: 0, count: prefix.count + size + suffix.count)
        frame.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            base.copyMemory(from: prefix, byteCount: prefix.count)
            _ = s.pending.read(into: base + prefix.count, capacity: size)
            (base + prefix.count + size).copyMemory(from: suffix, byteCount: suffix.count)
        }
        recharge(&s)
        return frame
    }

    private func closeSocket(of own: inout OwnSocket, reset: Bool = false) {
        guard own.socket >= 0 else { return }
        if reset { resetOnClose(own.socket) }
        Glibc.close(own.socket)
        own.socket = -1
        own.frame = []
        own.sent = 0
        own.endUnreported = true
    }

    /// Closes a socket of our own if it is still open (the stream finished by other means).
    /// Under the lock.
    func closeOwnSocket(_ s: inout State) {
        guard var own = s.own else { return }
        s.own = nil
        closeSocket(of: &own)
        // Finishing already: nothing to report.
        own.endUnreported = false
        s.own = own
    }

    /// Tells the server once that the stream's own socket was closed. Outside the lock.
    func reportOwnSocketEnd() {
        let end = state.withLock { s -> (@Sendable (EventStream, UInt64) -> Void, UInt64)? in
            guard let own = s.own, own.endUnreported else { return nil }
            s.own?.endUnreported = false
            return (own.ended, own.token)
        }
        if let (ended, token) = end { ended(self, token) }
    }
}
