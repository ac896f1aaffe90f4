import CMicroHTTPD

// Reading a request from a libmicrohttpd connection: its headers, query and body, and the
// refusals decided from its headers (a body too large, ambiguous framing).

func tooLarge(_ core: ServerCore) -> Response {
    HTTPError(.payloadTooLarge, message: "The body is larger than \(core.limits.maxBodyBytes) bytes", headers: ["Connection": "close"]).response
}

/// Refuses a body whose length two parsers could read differently (request smuggling):
/// libmicrohttpd 0.9.75 takes the first of two different `Content-Length`s and lets chunked
/// win over a `Content-Length`, and waits for the close on a coding it does not know.
func framingRefusal(_ connection: OpaquePointer) -> HTTPError? {
    let lengths = headerValues(connection, "Content-Length")
    let codings = headerValues(connection, "Transfer-Encoding")
    if !lengths.isEmpty && !codings.isEmpty {
        return HTTPError(.badRequest, code: "ambiguous_framing",
                         message: "A request may not carry both Content-Length and Transfer-Encoding",
                         headers: ["Connection": "close"])
    }
    // (Only when there are several: trimming every request's one value was 2% of a keystroke.)
    if lengths.count > 1, Set(lengths.map(trimmed)).count > 1 {
        return HTTPError(.badRequest, code: "conflicting_content_length",
                         message: "The request has Content-Length headers with different values",
                         headers: ["Connection": "close"])
    }
    if !codings.isEmpty, codings.count > 1 || trimmed(codings[0]).lowercased() != "chunked" {
        return HTTPError(.notImplemented, code: "unsupported_transfer_encoding",
                         message: "Only Transfer-Encoding: chunked is supported", headers: ["Connection": "close"])
    }
    return nil
}

private func trimmed(_ value: String) -> String {
    String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}

/// Every value of a request header (several fields of one name stay separate).
private func headerValues(_ connection: OpaquePointer, _ name: String) -> [String] {
    var found: (name: String, values: [String]) = (name.lowercased(), [])
    withUnsafeMutablePointer(to: &found) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let found = cls.assumingMemoryBound(to: (name: String, values: [String]).self)
            if string(key, keySize).lowercased() == found.pointee.name {
                found.pointee.values.append(value.map { string($0, valueSize) } ?? "")
            }
            return .YES
        }, pointer)
    }
    return found.values
}

func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

func makeRequest(_ connection: OpaquePointer, context: RequestContext, version: UnsafePointer<CChar>?, body: [UInt8]) -> Request {
    var headers = HTTPHeaders()
    // Counted first (no iterator): the fields go into an array made once at their number.
    headers.reserveCapacity(max(0, Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))))
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
            headers.pointee.add(name: string(key, keySize), value: value.map { string($0, valueSize) } ?? "")
            return .YES
        }, pointer)
    }
    var query: [QueryItem] = []
    withUnsafeMutablePointer(to: &query) { pointer in
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let items = cls.assumingMemoryBound(to: [QueryItem].self)
            // libmicrohttpd already turned `+` into a space; the escapes are ours to decode.
            items.pointee.append(QueryItem(
                name: PercentDecoding.decode(string(key, keySize), plusAsSpace: false),
                value: value.map { PercentDecoding.decode(string($0, valueSize), plusAsSpace: false) }))
            return .YES
        }, pointer)
    }
    var peer = [CChar](repeating: 0, count: 64)
    let remote = cmhd_connection_peer(connection, &peer, peer.count) == 0
        ? peer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
    return Request(
        method: context.method, rawPath: context.rawPath, queryItems: query, headers: headers,
        body: body, version: version.map { String(cString: $0) } ?? "HTTP/1.1", remoteAddress: remote)
}

private func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
}
