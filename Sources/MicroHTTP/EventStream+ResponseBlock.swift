// What an event stream's `MHD_Response` holds for as long as the stream is open.
extension EventStream {
    /// The block libmicrohttpd allocates inside a stream's `MHD_Response` (its `block_size`),
    /// held, zeroed by `calloc`, for the life of the stream.
    ///
    /// A client of HTTP/1.1 gets the stream chunked, and libmicrohttpd 0.9.75 then has the
    /// content reader write straight into the connection's write buffer (in its memory pool):
    /// the response's block is never used, so it is small (libmicrohttpd refuses 0). Only an
    /// HTTP/1.0 client (no chunked coding: the stream ends at the close) is read through the
    /// block, a send of at most its size at a time. 4 KiB for every stream was ~4 KiB of RSS
    /// per idle stream (issue 22: 10,000 idle streams).
    static func responseBlockBytes(chunked: Bool) -> Int {
        chunked ? 64 : 4096
    }
}
