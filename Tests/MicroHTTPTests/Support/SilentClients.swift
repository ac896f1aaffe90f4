import HTTPTestSupport

/// `count` clients that open `/events` and read its preamble, then never read again: the
/// server's sends to them pile up as backlog once the loopback socket buffers are full.
func openSilentStreams(port: Int, count: Int) async throws -> [TestSocket] {
    try await offPool { () -> [TestSocket] in
        try (0..<count).map { _ in
            var (reader, _) = try EventReader.open(port: port)
            _ = try reader.nextBlock()
            return reader.socket
        }
    }
}
