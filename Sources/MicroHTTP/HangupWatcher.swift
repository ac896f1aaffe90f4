import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices clients that hang up when libmicrohttpd would not, and (optionally) wakes up
/// periodically to cut connections that miss their request deadlines.
///
/// A suspended connection (an idle event stream) is out of libmicrohttpd's poll set, so a client
/// that closes it goes unnoticed until the next write fails; and libmicrohttpd 0.9.75 misses a
/// FIN that arrives with a partial request. The watcher keeps every connection's socket in its
/// own epoll set (`EPOLLRDHUP`, edge-triggered) and one thread blocked in `epoll_wait`: it costs
/// nothing while clients are idle and reports a hang-up within milliseconds. Tokens are
/// connection ids, so an event for a connection that has already gone is simply ignored.
final class HangupWatcher: Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    private let thread = Mutex<pthread_t?>(nil)

    private static let wakeToken: UInt64 = 0

    init?() {
        let epollFD = cmhd_epoll_create()
        let wakeFD = cmhd_eventfd()
        guard epollFD >= 0, wakeFD >= 0, cmhd_epoll_watch_readable(epollFD, wakeFD, Self.wakeToken) == 0 else {
            if epollFD >= 0 { close(epollFD) }
            if wakeFD >= 0 { close(wakeFD) }
            return nil
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
    }

    deinit {
        close(epollFD)
        close(wakeFD)
    }

    /// What the thread owns while it runs.
    private final class ThreadContext: Sendable {
        let watcher: HangupWatcher
        let tickMilliseconds: Int32?
        let onHangup: @Sendable (UInt64) -> Void
        let onWritable: @Sendable (UInt64) -> Void
        let onTick: @Sendable () -> Void
        init(watcher: HangupWatcher, tickMilliseconds: Int32?, onHangup: @escaping @Sendable (UInt64) -> Void,
             onWritable: @escaping @Sendable (UInt64) -> Void, onTick: @escaping @Sendable () -> Void) {
            self.watcher = watcher
            self.tickMilliseconds = tickMilliseconds
            self.onHangup = onHangup
            self.onWritable = onWritable
            self.onTick = onTick
        }
    }

    /// Starts the thread, which calls `onHangup` with a connection id for each hang-up,
    /// `onWritable` with the id of a stream socket (``watchStream(socket:token:)``) that has
    /// room to write again, and `onTick` about every `tickMilliseconds` (never when `nil`),
    /// until `stop()`; `false` if the thread could not be created.
    func start(tickMilliseconds: Int32? = nil, onHangup: @escaping @Sendable (UInt64) -> Void,
               onWritable: @escaping @Sendable (UInt64) -> Void = { _ in },
               onTick: @escaping @Sendable () -> Void = {}) -> Bool {
        thread.withLock { thread in
            guard thread == nil else { return true }
            let context = ThreadContext(watcher: self, tickMilliseconds: tickMilliseconds, onHangup: onHangup,
                                        onWritable: onWritable, onTick: onTick)
            let box = Unmanaged.passRetained(context).toOpaque()
            var id = pthread_t()
            let rc = pthread_create(&id, nil, { argument in
                guard let argument else { return nil }
                let context = Unmanaged<ThreadContext>.fromOpaque(argument).takeRetainedValue()
                context.watcher.run(context)
                return nil
            }, box)
            guard rc == 0 else {
                Unmanaged<ThreadContext>.fromOpaque(box).release()
                return false
            }
            thread = id
            return true
        }
    }

    /// Watches a connection's socket; `token` is the connection id (never 0).
    func watch(socket: Int32, token: UInt64) {
        _ = cmhd_epoll_watch_hangup(epollFD, socket, token)
    }

    /// Watches a socket the server writes itself (an event stream taken from libmicrohttpd:
    /// see `EventStream+OwnSocket.swift`) for a hang-up and for room to write; `token` is the
    /// stream's connection id. Closing the socket removes it (no other descriptor shares it).
    func watchStream(socket: Int32, token: UInt64) -> Bool {
        cmhd_epoll_watch_stream(epollFD, socket, token) == 0
    }

    /// Stops watching; call while the socket is still open. `false` means it was no longer in
    /// the set, i.e. the descriptor had already been closed.
    func unwatch(socket: Int32) -> Bool {
        cmhd_epoll_unwatch(epollFD, socket) == 0
    }

    /// Wakes the thread and waits for it to exit.
    func stop() {
        guard let id = thread.withLock({ thread -> pthread_t? in
            defer { thread = nil }
            return thread
        }) else { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
        pthread_join(id, nil)
    }

    private func run(_ context: ThreadContext) {
        var tokens = [UInt64](repeating: 0, count: 128)
        var masks = [UInt32](repeating: 0, count: 128)
        let tick = context.tickMilliseconds.map { UInt64($0) * 1_000_000 }
        var nextTick = tick.map { monotonicNanoseconds() + $0 } ?? .max
        while true {
            var timeout: Int32 = -1
            if tick != nil {
                let now = monotonicNanoseconds()
                timeout = now >= nextTick ? 0 : Int32(clamping: (nextTick - now) / 1_000_000 + 1)
            }
            let n = tokens.withUnsafeMutableBufferPointer { tokens in
                masks.withUnsafeMutableBufferPointer { masks in
                    cmhd_epoll_wait(epollFD, tokens.baseAddress, masks.baseAddress, Int32(tokens.count), timeout)
                }
            }
            if n < 0 && errno != EINTR { return }
            for i in 0..<max(0, Int(n)) {
                if tokens[i] == Self.wakeToken { return }
                // A hang-up first: a stream that lost its client is ended, not written to.
                if cmhd_epoll_is_hangup(masks[i]) != 0 {
                    context.onHangup(tokens[i])
                } else if cmhd_epoll_is_writable(masks[i]) != 0 {
                    context.onWritable(tokens[i])
                }
            }
            if let tick, monotonicNanoseconds() >= nextTick {
                context.onTick()
                nextTick = monotonicNanoseconds() + tick
            }
        }
    }
}
