import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices clients that hang up when libmicrohttpd would not.
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
        let onHangup: @Sendable (UInt64) -> Void
        init(watcher: HangupWatcher, onHangup: @escaping @Sendable (UInt64) -> Void) {
            self.watcher = watcher
            self.onHangup = onHangup
        }
    }

    /// Starts the thread, which calls `onHangup` with a stream id for each hang-up until
    /// `stop()`; `false` if the thread could not be created.
    func start(onHangup: @escaping @Sendable (UInt64) -> Void) -> Bool {
        thread.withLock { thread in
            guard thread == nil else { return true }
            let box = Unmanaged.passRetained(ThreadContext(watcher: self, onHangup: onHangup)).toOpaque()
            var id = pthread_t()
            let rc = pthread_create(&id, nil, { argument in
                guard let argument else { return nil }
                let context = Unmanaged<ThreadContext>.fromOpaque(argument).takeRetainedValue()
                context.watcher.run(onHangup: context.onHangup)
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

    private func run(onHangup: @Sendable (UInt64) -> Void) {
        var tokens = [UInt64](repeating: 0, count: 128)
        while true {
            let n = tokens.withUnsafeMutableBufferPointer { cmhd_epoll_wait(epollFD, $0.baseAddress, Int32($0.count), -1) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            for i in 0..<Int(n) {
                if tokens[i] == Self.wakeToken { return }
                onHangup(tokens[i])
            }
        }
    }
}
