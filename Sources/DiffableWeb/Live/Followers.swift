import MicroHTTP

/// The streams following a list, each with what its client holds: found by stream (its close
/// handler) and by the id its client names (`POST …/viewport`).
struct Followers: Sendable {
    /// A stream and what its client holds.
    struct Follower: Sendable {
        let stream: EventStream
        let id: String
        var window: StreamWindow
        var held: [String: WireFrame] = [:]
        var signature = 0
        /// The newest version the client has; older events are not sent to it.
        var version: Int
    }

    typealias Key = ObjectIdentifier

    private(set) var all: [Key: Follower] = [:]
    private var byStreamID: [String: Key] = [:]

    var count: Int { all.count }
    var isEmpty: Bool { all.isEmpty }

    subscript(stream: EventStream) -> Follower? { all[Key(stream)] }

    /// The follower whose client names itself `streamID`.
    func follower(streamID: String) -> Follower? { byStreamID[streamID].flatMap { all[$0] } }

    /// Adds a follower, or updates one still following (a stream that closed meanwhile is not
    /// brought back by an update: see ``update(_:)``).
    mutating func insert(_ follower: Follower) {
        let key = Key(follower.stream)
        all[key] = follower
        byStreamID[follower.id] = key
    }

    /// Takes what a follower holds now, if it still follows. - Returns: whether it does.
    @discardableResult
    mutating func update(_ follower: Follower) -> Bool {
        let key = Key(follower.stream)
        guard all[key] != nil else { return false }
        all[key] = follower
        return true
    }

    /// Forgets a stream. - Returns: its follower, if it was one.
    @discardableResult
    mutating func remove(_ stream: EventStream) -> Follower? {
        guard let follower = all.removeValue(forKey: Key(stream)) else { return nil }
        byStreamID[follower.id] = nil
        return follower
    }

    /// Forgets every stream. - Returns: their followers.
    mutating func removeAll() -> [Follower] {
        defer { all.removeAll(); byStreamID.removeAll() }
        return Array(all.values)
    }
}
