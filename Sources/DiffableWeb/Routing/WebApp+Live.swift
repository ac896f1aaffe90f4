import CompositionalLayout
import Foundation
import MicroHTTP

// The live routes: the event stream, the viewport, and demo actions.

extension WebApp {
    func eventStream(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        _ = try requestedViewport(request.query)  // a bad one is refused before a session is made
        let (session, cookie) = try await session(for: request)
        return try eventStream(request, list: try await list(session, descriptor), cookie: cookie)
    }

    /// The live stream of one list (the browser's, and the API's `…/events`).
    func eventStream(_ request: Request, list: LiveList, cookie: SetCookie?) throws -> Response {
        // A new stream grows memory (its buffer, a deflate state): none while the process is
        // full, or while the streams hold their whole budget (with those admitted and not yet
        // open: their memory comes when they open).
        let reservation = try reserveStream(gzip: request.headers["Accept-Encoding"]?.contains("gzip") ?? false)
        let viewport = try requestedViewport(request.query)
        guard let top = StreamWindow.top(request.query["top"]) else { throw Self.invalidViewport }
        let window = viewport.map { StreamWindow(container: $0, top: top) }
        // The session's next page is laid out for the viewport its tab streams for (an
        // adaptive layout's first render is then the one the stream keeps: no reflow).
        if let viewport { list.setViewport(viewport) }
        // EventSource sends Last-Event-ID itself; a client that re-creates its EventSource
        // passes it in the query instead.
        let lastEventID = request.lastEventID ?? request.query["lastEventId"]
        // The stream opens on the server's thread, after this request's span: its first
        // event (a replay or a snapshot) is traced under the request that asked for it.
        let trace = Spans.Trace.current
        return Response.eventStream { [heartbeats] stream in
            reservation.release()
            heartbeats.add(stream)
            list.attach(stream, window: window, lastEventID: lastEventID, trace: trace)
        }.with(cookie)
    }

    /// A stream's viewport moved (`stream`, `width`, `height`, `top`): its window follows, with a
    /// `window` event. The size is also the one of the session's pages and next streams (the
    /// only effect without `stream`).
    func viewport(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let parameters = try ActionParameters(body: request)
        guard let size = viewportSize(width: parameters.string("width"), height: parameters.string("height")),
              let top = StreamWindow.top(parameters.string("top")) else {
            throw Self.invalidViewport
        }
        let container = LayoutContainer(width: size.width, height: size.height)
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        if let stream = parameters.string("stream") {
            guard await list.moveWindow(streamID: stream, to: StreamWindow(container: container, top: top)) else {
                throw HTTPError(.notFound, code: "unknown_stream", message: "This list has no open stream “\(stream.prefix(40))”; reconnect")
            }
            list.setViewport(container)  // a resize or a rotation: the next page's too
        } else {
            list.setViewport(container)
        }
        return Response(status: .noContent).with(cookie)
    }

    func action(_ request: Request, _ descriptor: DemoDescriptor, name: String) async throws -> Response {
        guard let action = descriptor.actions.first(where: { $0.name == name }) else {
            throw HTTPError(.notFound, code: "unknown_action", message: "The \(descriptor.name) demo has no action “\(name)”")
        }
        var parameters = try ActionParameters(body: request, for: action)
        if request.isForm { parameters = parameters.asFormFields(of: action) }
        let seq: Int?
        if let text = parameters.string("seq") {
            guard let value = Int(text) else { throw HTTPError(.badRequest, code: "invalid_parameter", message: "seq must be an integer") }
            seq = value
        } else {
            seq = nil
        }
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        let client = parameters.string("client") ?? "default"
        let (version, report) = try await retryingLostRace(session, descriptor, list) { list in
            try await list.perform(name, parameters: parameters, client: client, seq: seq)
        }
        if request.isForm {
            // A form without JavaScript: back to the page (Post/Redirect/Get).
            var location = "/demos/\(descriptor.name)"
            if let item = descriptor.pageQuery?.queryItem(after: name, parameters),
               let encoded = item.value?.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
                location += "?\(item.name)=\(encoded)"
            }
            return Response.redirect(to: location).with(cookie)
        }
        return Self.actionAnswer(version: version, report: report).with(cookie)
    }
}

extension WebApp {
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

    /// An action's JSON answer: `{"version": …}` and what the demo reports (written as bytes: a
    /// keystroke's answer went through a `String`, `Data` and an array before).
    static func actionAnswer(version: Int, report: ActionReport?) -> Response {
        var body = Array(#"{"version":"#.utf8)
        body.append(contentsOf: String(version).utf8)
        if let report, !report.members.isEmpty {
            body.append(UInt8(ascii: ","))
            body.append(contentsOf: report.members.utf8)
        }
        body.append(UInt8(ascii: "}"))
        return Response(status: .ok, headers: Self.jsonHeaders, body: .bytes(body))
    }
}

extension Request {
    var isForm: Bool { contentType(startsWith: "application/x-www-form-urlencoded") }
    var isJSON: Bool {
        contentType(startsWith: "application/json")
            || (contentType(startsWith: "application/") && (headers["Content-Type"] ?? "").lowercased().contains("+json"))
    }

    /// Whether the `Content-Type` starts with `prefix` (lowercase ASCII), in any case. Compared
    /// byte by byte: `lowercased()` made a string on every check, and a keystroke checks four
    /// times.
    private func contentType(startsWith prefix: StaticString) -> Bool {
        guard let type = headers["Content-Type"] else { return false }
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return type.utf8.starts(with: expected) { byte, wanted in (byte >= 65 && byte <= 90 ? byte + 32 : byte) == wanted }
    }
}

extension ActionParameters {
    /// A page's form as the action reads it: a field left empty is absent, and a position is
    /// shown counting from 1 (as people count), so 1 is taken off (the JSON API counts from 0).
    func asFormFields(of action: ActionDescriptor) -> ActionParameters {
        var copy = self
        for parameter in action.parameters {
            guard let text = copy.values[parameter.name] else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty, !parameter.required {
                copy.values[parameter.name] = nil
            } else if parameter.position, let number = Int(trimmed), number > Int.min {
                copy.values[parameter.name] = String(number - 1)
            }
        }
        return copy
    }

    /// Parameters from a JSON object (scalars, and arrays of strings for `action`'s parameters of
    /// type `array`) or an HTML form; an empty body has none.
    /// - Throws: 415 for other content types, 400 for malformed JSON or values of the wrong shape.
    init(body request: Request, for action: ActionDescriptor? = nil) throws {
        guard !request.body.isEmpty else { self.init(); return }
        if request.isForm {
            var values: [String: String] = [:]
            for item in QueryItem.parse(request.bodyText) { values[item.name] = item.value ?? "" }
            self.init(values)
            return
        }
        guard request.isJSON else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send application/json or a form")
        }
        // A flat object of plain strings, integers, booleans and nulls (every keystroke's body)
        // is read here; anything else goes through JSONDecoder, which took 6% of a keystroke's
        // server time.
        if let flat = FlatJSONObject.parse(request.body) {
            self.init(flat)
            return
        }
        guard let object = try? JSONDecoder().decode([String: JSONScalar].self, from: Data(request.body)) else {
            throw HTTPError(.badRequest, code: "malformed_json",
                            message: "The body must be a JSON object whose values are strings, numbers, booleans, null or arrays of strings")
        }
        var values: [String: String] = [:]
        var lists: [String: [String]] = [:]
        let listNames = Set(action?.parameters.filter { $0.type == "array" }.map(\.name) ?? [])
        for (key, value) in object {
            if case .strings(let strings) = value {
                guard listNames.contains(key) else {
                    throw HTTPError(.badRequest, code: "malformed_json", message: "\(key.prefix(80)) must be a string, a number, a boolean or null, not an array")
                }
                lists[key] = strings
            } else if let text = value.text {
                values[key] = text
            }
        }
        self.init(values, lists: lists)
    }
}

/// One scalar JSON value (or an array of strings), as text for ``ActionParameters``.
enum JSONScalar: Decodable {
    case string(String), integer(Int), number(Double), bool(Bool), null, strings([String])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The common kinds first: every kind tried and missed throws, and throwing is what a
        // keystroke's body cost (8% of the server's time per keystroke, in perf).
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else { self = .strings(try container.decode([String].self)) }
    }

    var text: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null, .strings: nil
        }
    }
}
