import MicroHTTP

extension WebApp {
    /// The requests whose handlers start on libmicrohttpd's thread and run there until they
    /// first wait (`HTTPServer.Configuration.runsInline`): writes with a small body, as a
    /// person's keystroke, tap or action sends, answered in the callback that read them, with
    /// no task hop (a keystroke's CPU fell 16–20%, its context switches 42%).
    ///
    /// Everything else runs on the cooperative pool: a page, a stream's first snapshot, a read
    /// of a whole list or a write with a large body (thousands of identifiers) never holds a
    /// polling thread, so `/healthz` and static files stay prompt while 5,000 streams open at
    /// once (`scripts/memory-test.py`, case C: run inline, its p99 went from under 50 to 215 ms).
    public static func runsInline(_ request: Request) -> Bool {
        request.method == .post && request.body.count <= inlineBodyLimit
    }

    /// The largest body a request run inline may have (a keystroke's is under 100 bytes).
    static let inlineBodyLimit = 4 * 1024
}
