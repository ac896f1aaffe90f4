// The bridge to libmicrohttpd: its C callbacks, turned into calls on `ServerCore`, and our
// `Response` turned into an `MHD_Response`. Nothing outside the LibMicroHTTPD files calls
// libmicrohttpd, except `ConnectionHandle`'s suspend/resume. This file starts and stops the
// daemon; its callbacks are in LibMicroHTTPD+Callbacks.swift, reading a request from a
// connection in LibMicroHTTPD+Requests.swift, queueing a response in LibMicroHTTPD+Responses.swift.
//
// Threading: libmicrohttpd runs every callback on its one internal polling thread. The
// callbacks stay short (parse, suspend, start a task, queue a response); handlers run in tasks.
import CMicroHTTPD
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `struct MHD_Connection *`.
///
/// `@unchecked Sendable`: the pointer is only dereferenced by libmicrohttpd. Other threads use
/// it for exactly one thing, `MHD_resume_connection`, which libmicrohttpd documents as callable
/// from any thread, and only while the connection is suspended (a suspended connection cannot
/// be completed or freed); `EventStream` and `RequestContext` guarantee that under their locks.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Only from libmicrohttpd's thread, inside one of its callbacks.
    func suspend() { MHD_suspend_connection(pointer) }
    /// From any thread, once per suspension.
    func resume() { MHD_resume_connection(pointer) }
}

/// A running `struct MHD_Daemon *` and the C memory it points into.
///
/// `@unchecked Sendable`: the pointers are only passed to `MHD_stop_daemon` (once, by
/// `HTTPServer.stop`, under its lock) and `MHD_get_daemon_info`; the memory is freed after the
/// daemon has stopped.
struct RunningDaemon: @unchecked Sendable {
    let daemon: OpaquePointer
    let core: Unmanaged<ServerCore>
    let address: UnsafeMutableRawPointer?
    let logger: UnsafeMutablePointer<cmhd_logger>
    let port: Int

    /// Ends every stream, answers waiting requests, stops libmicrohttpd (joining its thread and
    /// closing every connection, which runs the completion callbacks), then frees what it used.
    func stop() {
        let core = self.core.takeUnretainedValue()
        let answered = core.beginStop()
        // Give the 503s a moment to reach their clients (libmicrohttpd's own threads write them)
        // before the daemon closes every socket: bounded, so a client that does not read cannot
        // hold the stop.
        let deadline = ContinuousClock.now + .milliseconds(250)
        while !answered.isEmpty && core.isResponding(answered) && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        MHD_stop_daemon(daemon)
        core.watcher.stop()
        self.core.release()
        address?.deallocate()
        logger.deallocate()
    }
}

enum LibMicroHTTPD {
    enum StartError: Error {
        case invalidHost(String)
        case failed(String)
    }

    /// Starts a daemon for `core` on `host:port`.
    static func start(core: ServerCore, host: String, port: Int, threads: Int) throws -> RunningDaemon {
        let limits = core.limits
        var flags = CMHD_FLAGS_DEFAULT
        var address: UnsafeMutableRawPointer?
        switch host {
        case "", "0.0.0.0", "*":
            break
        case "::":
            flags |= CMHD_FLAG_DUAL_STACK
        default:
            let name = host == "localhost" ? "127.0.0.1" : host
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, name, &v4) == 1 {
                let sa = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in>.size, alignment: 8)
                var value = sockaddr_in()
                value.sin_family = sa_family_t(AF_INET)
                value.sin_port = UInt16(port).bigEndian
                value.sin_addr = v4
                sa.storeBytes(of: value, as: sockaddr_in.self)
                address = sa
            } else if inet_pton(AF_INET6, name, &v6) == 1 {
                let sa = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in6>.size, alignment: 8)
                var value = sockaddr_in6()
                value.sin6_family = sa_family_t(AF_INET6)
                value.sin6_port = UInt16(port).bigEndian
                value.sin6_addr = v6
                sa.storeBytes(of: value, as: sockaddr_in6.self)
                address = sa
                flags |= CMHD_FLAG_IPV6
            } else {
                throw StartError.invalidHost(host)
            }
        }

        let retainedCore = Unmanaged.passRetained(core)
        let cls = retainedCore.toOpaque()
        let logger = UnsafeMutablePointer<cmhd_logger>.allocate(capacity: 1)
        logger.initialize(to: cmhd_logger(fn: daemonLog, context: cls))

        var config = cmhd_daemon_config()
        config.flags = flags
        config.port = UInt16(clamping: port)
        config.address = address.map { UnsafePointer($0.assumingMemoryBound(to: sockaddr.self)) }
        config.connection_limit = UInt32(clamping: core.maxConnections.load(ordering: .relaxed) + limits.overflowConnections)
        config.connection_timeout_seconds = limits.requestTimeoutSeconds
        config.per_ip_connection_limit = UInt32(clamping: max(0, limits.maxConnectionsPerAddress))
        config.connection_memory_limit = limits.connectionMemoryBytes
        config.thread_pool_size = UInt32(clamping: max(1, threads))
        config.listen_backlog = UInt32(clamping: max(16, limits.listenBacklog))
        config.access_handler = accessHandler
        config.access_handler_cls = cls
        config.request_completed = requestCompleted
        config.request_completed_cls = cls
        config.connection_notify = connectionNotify
        config.connection_notify_cls = cls
        config.unescape = keepEscaped
        config.unescape_cls = nil
        config.uri_log = requestLineParsed
        config.uri_log_cls = cls
        config.logger = logger

        guard let daemon = cmhd_start_daemon(&config) else {
            retainedCore.release()
            address?.deallocate()
            logger.deallocate()
            let reason = core.lastDaemonMessage.withLock { $0 } ?? "MHD_start_daemon failed"
            throw StartError.failed(reason)
        }
        return RunningDaemon(daemon: daemon, core: retainedCore, address: address, logger: logger, port: Int(cmhd_daemon_port(daemon)))
    }
}
