import HTTPTestSupport

/// What a client sees when it connects and sends `GET path`: `"closed"` (the connection closed
/// with no response, as a per-address refusal does), `"answered <status>"`, or the error.
func connectionOutcome(port: Int, path: String, timeout: Double = Patience.hangSeconds) async throws -> String {
    try await offPool { () -> String in
        let socket = try TestSocket.connect(port: port)
        defer { socket.close() }
        try? socket.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
        var reader = ResponseReader(socket)
        do {
            return "answered \(try reader.readResponse(timeout: timeout).status)"
        } catch {
            return reader.closed ? "closed" : "\(error)"
        }
    }
}
