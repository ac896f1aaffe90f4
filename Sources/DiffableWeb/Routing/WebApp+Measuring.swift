import CompositionalLayout
import MicroHTTP

// `POST /demos/<name>/measure`: the sizes a browser measured for the self-sizing cells it shows.
extension WebApp {
    /// What a browser measured: its stream, and the sizes of cells it shows, by cell id.
    struct MeasureInput: Decodable {
        struct Size: Decodable { var w: Double; var h: Double }
        var stream: String
        var sizes: [String: Size]
    }

    /// At most this many sizes in one message (a screen and its overscan hold far fewer; the
    /// client sends more in several).
    static let maximumMeasurements = 1_000

    /// Takes the measured sizes of stream `stream`'s cells: the list is laid out again at its
    /// width and the streams of that width whose frames or content size changed get them (a
    /// `window` event, `measured`).
    /// `204`; `400 malformed_json` for a body that is not the object above;
    /// `400 invalid_measurement` for a size that is not a finite length in 0…100,000 or too
    /// many; `404 unknown_stream` when the stream is gone (the client reconnects);
    /// `422 invalid_measurement` for the size of a header, footer or decoration (they never size
    /// themselves: only `fit` cells are measured); `422 memory_budget` (or `503 memory_full`)
    /// when keeping the sizes would pass the session's memory budget (or the server's): measured
    /// sizes count as the list's items do. A refused message keeps nothing.
    func measure(_ request: Request, _ descriptor: DemoDescriptor) async throws -> Response {
        let input: MeasureInput = try decodeBody(request)
        guard input.sizes.count <= Self.maximumMeasurements else {
            throw HTTPError(.badRequest, code: "invalid_measurement",
                            message: "At most \(Self.maximumMeasurements) sizes in one message; got \(input.sizes.count)")
        }
        var sizes: [(id: String, size: LayoutPixelSize)] = []
        sizes.reserveCapacity(input.sizes.count)
        for (id, size) in input.sizes {
            guard APILimits.identifierLength.contains(id.utf8.count) || id.hasPrefix("header:") || id.hasPrefix("footer:"),
                  id.utf8.count <= 400 else {
                throw HTTPError(.badRequest, code: "invalid_measurement", message: "“\(id.prefix(40))” is not a cell id")
            }
            guard Self.measurable.contains(size.w), Self.measurable.contains(size.h) else {
                throw HTTPError(.badRequest, code: "invalid_measurement",
                                message: "The size of “\(id.prefix(40))” must be two lengths in 0…100000 CSS pixels")
            }
            sizes.append((id, LayoutPixelSize(width: size.w, height: size.h)))
        }
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        switch try await list.measure(streamID: input.stream, sizes: sizes) {
        case .taken:
            return Response(status: .noContent).with(cookie)
        case .unknownStream:
            throw HTTPError(.notFound, code: "unknown_stream", message: "This list has no open stream “\(input.stream.prefix(40))”; reconnect")
        case .notSelfSizing(let id):
            throw HTTPError(.unprocessableContent, code: "invalid_measurement",
                            message: "“\(id.prefix(40))” is a header, footer or decoration: only cells marked fit size themselves; nothing was kept")
        }
    }

    private static let measurable: ClosedRange<Double> = 0...100_000
}
