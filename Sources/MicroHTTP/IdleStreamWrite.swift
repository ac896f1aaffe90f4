#if canImport(Glibc)
import Glibc
#endif

/// Writes a few bytes (a heartbeat) to an idle event stream's socket ourselves, without waking
/// libmicrohttpd.
///
/// An idle stream's connection is suspended: out of libmicrohttpd's poll set, its write buffer
/// sent to the end (the content reader suspends only when libmicrohttpd asks for more after
/// sending everything), so nothing of libmicrohttpd's is half-written on the socket and it
/// touches the socket again only once resumed. Resuming a connection for a heartbeat cost a
/// wake-up of libmicrohttpd's thread, an `eventfd` write, two `epoll_ctl`s, a 4 KiB buffer and,
/// per wake-up, a walk of every suspended connection (0.9.75's `resume_suspended_connections`):
/// at 10,000 idle streams that walk alone was a fifth of the server's idle CPU. Written here,
/// a heartbeat is one `send`.
///
/// The bytes go out as one chunk of the chunked body (`<size>\r\n<bytes>\r\n`), or as they are
/// for an HTTP/1.0 client (no chunked coding). The caller holds the stream's lock (so the
/// connection stays suspended and the descriptor stays the connection's) and ends the stream
/// when this fails.
enum IdleStreamWrite {
    /// Sends `bytes` whole, without blocking. `false` when they did not all go: the client is
    /// gone, or has left so much unread that the kernel takes not even these few bytes (what
    /// went out is then a partial chunk: the stream must end).
    static func send(_ bytes: [UInt8], to socket: Int32, chunked: Bool) -> Bool {
        guard socket >= 0, !bytes.isEmpty else { return socket >= 0 }
        let wire = frame(bytes, chunked: chunked)
        let sent = wire.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return sent == wire.count
    }

    /// `bytes` as one chunk of a chunked body (`<size>\r\n<bytes>\r\n`), or as they are.
    static func frame(_ bytes: [UInt8], chunked: Bool) -> [UInt8] {
        guard chunked else { return bytes }
        var wire: [UInt8] = []
        wire.reserveCapacity(bytes.count + 12)
        wire += Array(String(bytes.count, radix: 16).utf8) + [13, 10]
        wire += bytes
        wire += [13, 10]
        return wire
    }
}
