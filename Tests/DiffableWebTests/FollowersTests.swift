import CompositionalLayout
import Testing
@testable import DiffableWeb
@testable import MicroHTTP

/// A list's followers: found by stream and by the id their client names, kept in the order
/// they came, and a publication's copy taken back without bringing back streams closed meanwhile.
struct FollowersTests {
    /// Never dereferenced: these streams are never suspended, so nothing calls libmicrohttpd.
    private func stream(_ id: UInt64) throws -> EventStream {
        let pointer = try #require(OpaquePointer(bitPattern: 0x10))
        return EventStream(id: id, connection: ConnectionHandle(pointer: pointer), socket: -1, bufferLimit: 1 << 20)
    }

    private func follower(_ stream: EventStream, _ id: String, version: Int = 1) -> Followers.Follower {
        Followers.Follower(stream: stream, id: id, window: StreamWindow(container: LayoutContainer(width: 390, height: 800), top: 0),
                           version: version)
    }

    @Test func foundByStreamAndByIdInTheOrderTheyCame() throws {
        let streams = try (1...4).map { try stream($0) }
        var followers = Followers()
        for (n, stream) in streams.enumerated() { followers.insert(follower(stream, "s\(n)")) }
        #expect(followers.count == 4 && followers.all.map(\.id) == ["s0", "s1", "s2", "s3"])
        #expect(followers[streams[2]]?.id == "s2" && followers.follower(streamID: "s3")?.stream === streams[3])
        #expect(followers.follower(streamID: "nobody") == nil)
        // Inserting a stream that follows already updates it in place.
        followers.insert(follower(streams[1], "s1", version: 7))
        #expect(followers.count == 4 && followers[streams[1]]?.version == 7 && followers.all[1].version == 7)
        #expect(followers.remove(streams[1])?.id == "s1" && followers.remove(streams[1]) == nil)
        #expect(followers.all.map(\.id) == ["s0", "s2", "s3"] && followers.follower(streamID: "s1") == nil)
        #expect(!followers.update(follower(streams[1], "s1", version: 9)) && followers.count == 3)
        #expect(followers.removeAll().count == 3 && followers.isEmpty)
    }

    /// A publication works on a copy; once its write is saved, what it changed is taken back,
    /// except for streams that closed meanwhile, and streams that opened meanwhile stay.
    @Test func aCopyTakenBackKeepsClosedStreamsClosed() throws {
        let streams = try (1...5).map { try stream($0) }
        var followers = Followers()
        for (n, stream) in streams.prefix(4).enumerated() { followers.insert(follower(stream, "s\(n)")) }
        var copy = followers
        for (index, var each) in copy.all.enumerated() {
            each.version = 5
            copy.replace(at: index, with: each)
        }
        // Meanwhile: two streams closed, one opened.
        followers.remove(streams[0])
        followers.remove(streams[2])
        followers.insert(follower(streams[4], "s4"))
        followers.update(from: copy)
        #expect(followers.all.map(\.id) == ["s1", "s3", "s4"])
        #expect(followers.all.map(\.version) == [5, 5, 1])
    }
}
