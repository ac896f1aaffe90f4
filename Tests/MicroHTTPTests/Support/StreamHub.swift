import HTTPTestSupport
import MicroHTTP
import Synchronization

/// What a web layer would do with event streams: keep the open ones, forget closed ones.
/// Tests await what it sees: `await hub.opened.wait(for: n)`, `await hub.closed.wait(for: n)`.
final class StreamHub: Sendable {
    private let streams = Mutex<[EventStream]>([])
    private let reasons = Mutex<[EventStream.CloseReason]>([])
    /// Streams added so far, signalled once each is in ``all``.
    let opened = CountSignal()
    /// Streams closed so far, signalled once each is gone from ``all`` and its reason is in
    /// ``closeReasons``.
    let closed = CountSignal()

    func add(_ stream: EventStream) {
        streams.withLock { $0.append(stream) }
        opened.signal()
        stream.onClose { [weak self] reason in
            self?.streams.withLock { $0.removeAll { $0 === stream } }
            self?.reasons.withLock { $0.append(reason) }
            self?.closed.signal()
        }
    }

    var count: Int { streams.withLock { $0.count } }
    var all: [EventStream] { streams.withLock { $0 } }
    var closeReasons: [EventStream.CloseReason] { reasons.withLock { $0 } }

    @discardableResult
    func broadcast(event: String? = nil, id: String? = nil, data: String) -> Int {
        all.reduce(0) { $0 + ($1.send(event: event, id: id, data: data) ? 1 : 0) }
    }
}
