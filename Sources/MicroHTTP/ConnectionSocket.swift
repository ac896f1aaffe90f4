#if canImport(Glibc)
import Glibc
#endif

/// Shuts a connection's socket down both ways (never closes it: libmicrohttpd owns the
/// descriptor). Its next read or write fails and its poll reports a hang-up, so libmicrohttpd
/// closes the connection itself. Callers guarantee the descriptor is still the connection's.
/// Shuts a connection's socket down. With `peer` (the client's address when it was accepted),
/// only if the descriptor still names that client: libmicrohttpd may already have closed it and
/// the kernel handed the number to a new client (a client that opens a connection per request
/// gets the same number again at once). `nil`: the caller knows the descriptor is still this
/// connection's.
func shutdownConnectionSocket(_ socket: Int32, peer: [UInt8]?) {
    guard socket >= 0 else { return }
    if let peer, peer.isEmpty || socketPeer(socket) != peer { return }
    _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
}

/// The remote address and port of a connected socket, as raw bytes (empty when unknown).
func socketPeer(_ socket: Int32) -> [UInt8] {
    guard socket >= 0 else { return [] }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
    }
    guard result == 0 else { return [] }
    return withUnsafeBytes(of: &storage) { Array($0.prefix(Int(length))) }
}

/// Makes the socket's close a reset (`SO_LINGER` with a zero timeout): unsent bytes are dropped
/// and the connection is gone on both ends at once. For streams the server cuts: closed
/// ordinarily, a connection whose client stopped reading stays ESTABLISHED on the client's side
/// (the FIN waits behind bytes a zero window never takes), and its kernel buffers stay charged.
func resetOnClose(_ socket: Int32) {
    guard socket >= 0 else { return }
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
}
