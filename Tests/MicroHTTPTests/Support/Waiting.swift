import HTTPTestSupport
@testable import MicroHTTP
#if canImport(Glibc)
import Glibc
#endif

extension HTTPServer {
    /// Waits until the server's counts satisfy `predicate` (``HTTPServer/waitForCounts(_:)``:
    /// woken by the change that makes it true); `false` only past ``Patience/hang``.
    func countsReach(_ predicate: @escaping @Sendable (Counts) -> Bool) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitForCounts(predicate) }
            group.addTask {
                try? await Task.sleep(for: Patience.hang)  // the hang guard only
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

extension HTTPServer {
    /// Waits until libmicrohttpd holds no connection (`libraryConnectionCount`): the handed-off
    /// streams' connections, freed in its cleanup pass after the notification that counts them.
    /// Nothing signals that pass, so this polls; `false` only past ``Patience/hang``.
    func libraryConnectionsFreed() async -> Bool {
        await eventually("libmicrohttpd frees closed connections in its cleanup pass") { self.libraryConnectionCount == 0 }
    }
}

extension Limits {
    /// These limits with no deadline or idle timeout that a test could reach before
    /// ``Patience/hang``: only what the test is about (a hang-up, a refusal, the server's
    /// answer) can end a connection, so that waiting for the end without a clock still tells
    /// it apart from a timeout.
    var withoutTimeouts: Limits {
        var limits = self
        limits.requestTimeout = Patience.hang * 2
        limits.requestHeadDeadline = .zero
        limits.requestBodyDeadline = .zero
        return limits
    }
}

/// Blocks until the server has closed `count` of `sockets` (EOF or a reset waiting), woken by
/// the kernel as each closes; returns how many are closed (fewer only past ``Patience/hang``).
/// For connections that get nothing else from the server (refused ones beside held ones).
func waitForPeerCloses(_ sockets: [TestSocket], count: Int) -> Int {
    let deadline = ContinuousClock.now + Patience.hang  // the hang guard only
    var watched = sockets.filter { !$0.isClosedByPeer }
    while sockets.filter(\.isClosedByPeer).count < count && !watched.isEmpty && ContinuousClock.now < deadline {
        var fds = watched.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let left = (deadline - ContinuousClock.now).components
        let milliseconds = Int32(clamping: left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)
        guard poll(&fds, nfds_t(fds.count), max(1, milliseconds)) >= 0 || errno == EINTR else { break }
        // A socket that woke the poll is closed, or got bytes (then waking every poll): either
        // way only the quiet ones are watched on.
        watched = zip(watched, fds).filter { $0.1.revents == 0 }.map(\.0)
    }
    return sockets.filter(\.isClosedByPeer).count
}
