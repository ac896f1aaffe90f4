import CompositionalLayout
import DiffableDataSources
import Foundation
import MicroHTTP

// The JSON API of openapi.json: everything a person can do, a script can do. Generic over
// demos: a new demo gets every route for free.

extension WebApp {
    /// The API's routes (``Routes``): `/api/…` first, then, the session looked up, its own, then,
    /// the list looked up (and made if it was not yet), the list's.
    func routeAPI(_ request: Request, _ segments: [String]) async throws -> Response {
        if let match = Routes.match(.api, segments.dropFirst(), testHooks: configuration.testHooks), case .api(let api) = match.route.target {
            try allow(request, match.route)
            switch api {
            case .demos:
                return try jsonResponse(demos.map { DemoInfo(name: $0.name, title: $0.title, summary: $0.summary, actions: $0.actions) })
            case .createSession:
                let session = try await sessions.create()
                let cookie = sessionCookie(session, for: request)
                return try jsonResponse(describe(session), status: .created).with(cookie)
            }
        }
        guard Route.Scope.session.isPrefix(of: segments) else {
            throw HTTPError(.notFound, message: "No such API path: \(request.path)")
        }
        guard let id = SessionID(segments[2]), let session = try await sessions.lookup(shareID: id) else {
            throw HTTPError(.notFound, code: "unknown_session", message: "There is no session “\(segments[2])”")
        }
        if let match = Routes.match(.session, segments.dropFirst(3), testHooks: configuration.testHooks), match.route.target == .session {
            try allow(request, match.route)
            return try jsonResponse(describe(session))
        }
        guard Route.Scope.list.isPrefix(of: segments) else { throw HTTPError(.notFound, message: "No such API path: \(request.path)") }
        guard let descriptor = demo(named: segments[4]) else {
            throw HTTPError(.notFound, code: "unknown_demo", message: "There is no demo named “\(segments[4])”")
        }
        let list = try await list(session, descriptor)
        if request.method == .get || request.method == .head {
            // A script that wrote through another process reads what it wrote (streams follow
            // by notification; a read asks the store).
            await list.refresh()
        }
        guard let match = Routes.match(.list, segments.dropFirst(5), testHooks: configuration.testHooks),
              case .list(let route) = match.route.target else {
            throw HTTPError(.notFound, message: "No such API path: \(request.path)")
        }
        try allow(request, match.route)
        switch route {
        case .snapshot:
            if request.method == .put { return try await retryingLostRace(session, descriptor, list) { try await putSnapshot(request, $0) } }
            let json = try await heavyRead(session, list) { list.snapshotJSON { self.snapshotBody(list, $0, $1).bytes } }
            return Response(headers: ["Content-Type": "application/json"], body: .bytes(json))
        case .operations:
            return try await retryingLostRace(session, descriptor, list) { try await applyOperations(request, $0) }
        case .layout:
            guard let size = viewportSize(width: request.query["width"], height: request.query["height"]) else {
                throw Self.invalidViewport
            }
            let container = LayoutContainer(width: size.width, height: size.height)
            return try await heavyRead(session, list) { try self.jsonResponse(self.layoutBody(list, container)) }
        case .actions:
            return try jsonResponse(descriptor.actions)
        case .action:
            let name = match.parameter("action")
            guard let action = descriptor.actions.first(where: { $0.name == name }) else {
                throw HTTPError(.notFound, code: "unknown_action", message: "The \(descriptor.name) demo has no action “\(name)”")
            }
            try requireJSONOrEmpty(request)
            let parameters = try ActionParameters(body: request, for: action)
            let (version, report) = try await retryingLostRace(session, descriptor, list) { list in
                try await list.perform(name, parameters: parameters, client: "api", seq: nil)
            }
            return Self.actionAnswer(version: version, report: report)
        case .selection:
            if request.method == .post { return try await retryingLostRace(session, descriptor, list) { try await changeSelection(request, $0) } }
            return try selectionAnswer(list)
        case .swipeActions:
            if request.method == .post { return try await retryingLostRace(session, descriptor, list) { try await performSwipeAction(request, $0, client: "api") } }
            return try swipeActionsAnswer(request, list)
        case .menu:
            if request.method == .post { return try await retryingLostRace(session, descriptor, list) { try await performMenuAction(request, $0, client: "api") } }
            return try menuAnswer(request, list)
        case .editing:
            if request.method == .post { return try await retryingLostRace(session, descriptor, list) { try await changeEditing(request, $0) } }
            return try editingAnswer(list)
        case .deleteItem:
            return try await retryingLostRace(session, descriptor, list) { try await deleteItem(request, $0) }
        case .detailAccessory:
            return try await retryingLostRace(session, descriptor, list) { try await tapDetailAccessory(request, $0) }
        case .events:
            return try eventStream(request, list: list, cookie: nil)
        }
    }

    // MARK: Reading

    struct DemoInfo: Encodable { var name, title, summary: String; var actions: [ActionDescriptor] }

    struct SessionBody: Encodable {
        struct DemoState: Encodable { var name: String; var opened: Bool; var version: Int; var itemCount: Int; var openStreams: Int; var status: String?; var details: String? }
        var id: String
        var demos: [DemoState]
    }

    func describe(_ session: Session) -> SessionBody {
        SessionBody(id: session.shareID.value, demos: demos.map { descriptor in
            // Describing a session opens none of its lists: one not used yet is described as
            // it will start (its initial snapshot, applied as version 1).
            guard let list = session.existingList(named: descriptor.name) else {
                return .init(name: descriptor.name, opened: false, version: 1,
                             itemCount: descriptor.make().initialSnapshot().numberOfItems, openStreams: 0, status: nil, details: nil)
            }
            let (version, snapshot) = list.currentSnapshot()
            return .init(name: descriptor.name, opened: true, version: version, itemCount: snapshot.numberOfItems,
                         openStreams: list.openStreamCount, status: list.demo.status(of: snapshot),
                         details: list.demo.details(of: snapshot))
        })
    }

    struct SnapshotBody: Encodable {
        struct Item: Encodable { var id: String; var data: [String: String] }
        struct Section: Encodable { var id: String; var items: [Item] }
        var version: Int
        var sections: [Section]
        /// The list's selection (`nil`: it has none).
        var selection: ListSelection? = nil

        var json: String { String(decoding: bytes, as: UTF8.self) }

        /// The body as bytes, cached per version and sent without a copy. Written directly: `JSONEncoder` dominated this route's time on large lists.
        var bytes: [UInt8] {
            var writer = JSONWriter(capacity: 64 + sections.reduce(0) { $0 + $1.items.count } * 80)
            writer.raw("{\"version\":"); writer.int(version)
            writer.raw(",\"sections\":")
            writer.array(sections) { w, section in
                w.raw("{\"id\":"); w.string(section.id)
                w.raw(",\"items\":")
                w.array(section.items) { w, item in
                    w.raw("{\"id\":"); w.string(item.id)
                    w.raw(",\"data\":{")
                    for (index, (key, value)) in item.data.sorted(by: { $0.key < $1.key }).enumerated() {
                        if index > 0 { w.raw(",") }
                        w.string(key); w.raw(":"); w.string(value)
                    }
                    w.raw("}}")
                }
                w.raw("}")
            }
            writer.selection(selection)
            writer.raw("}")
            return writer.bytes
        }
    }

    /// The body of `GET …/snapshot` (built once per version: ``LiveList/snapshotJSON(_:)``).
    func snapshotBody(_ list: LiveList, _ version: Int, _ snapshot: Snapshot<String, String>) -> SnapshotBody {
        SnapshotBody(version: version, sections: snapshot.sectionIdentifiers.map { section in
            let items = (try? snapshot.itemIdentifiers(inSection: section)) ?? []
            return .init(id: section, items: items.map { .init(id: $0, data: list.demo.data(for: $0) ?? [:]) })
        }, selection: list.demo.selection)
    }

    struct LayoutBody: Encodable {
        struct Cell: Encodable {
            var id: String; var kind: CellKind; var section: String; var index: Int?; var frame: WireFrame
            /// It sizes itself (`true`), and its frame holds the size a browser measured at this width (`measured`).
            var fit: Bool?; var measured: Bool?
            /// A decoration's element kind (a section background).
            var decoration: String?
        }
        var version: Int
        var contentSize: WireSize
        var cells: [Cell]
    }

    /// Frames for a viewport, computed aside: the session's own viewport is not touched. Self-sizing
    /// cells are at the sizes browsers measured at this width (`measured`), the others at their estimates.
    func layoutBody(_ list: LiveList, _ container: LayoutContainer) -> LayoutBody {
        let (version, snapshot) = list.currentSnapshot()
        let measured = list.measuredSizes(forWidth: container.width)
        let layout = ListLayout(snapshot: snapshot, layout: list.demo.layout(), container: container, measured: measured)
        return LayoutBody(version: version, contentSize: WireSize(layout.contentSize), cells: layout.allCells.map {
            .init(id: $0.id, kind: $0.kind, section: $0.section, index: $0.index, frame: WireFrame($0.frame),
                  fit: $0.fits ? true : nil, measured: $0.fits && measured.sizes[$0.id] != nil ? true : nil,
                  decoration: $0.kind.decorationKind)
        })
    }

    /// Runs a read that costs in proportion to the whole list (laying it out, serialising it).
    /// For a list of at least ``WebConfiguration/heavyReadItems`` items it runs on the heavy-work
    /// threads, in the session's turn (``HeavyWork``): the handler waits without holding one of
    /// the cooperative threads every other session's keystrokes, actions and pages run on
    /// (issue 22, finding 3). A smaller list is read here, at once (no thread hop).
    /// - Throws: `429 too_many_requests` when the session's or the server's queue is full.
    func heavyRead<T: Sendable>(_ session: Session, _ list: LiveList, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard list.currentSnapshot().snapshot.numberOfItems >= configuration.heavyReadItems else { return try work() }
        return try await heavyWork.run(for: session.shareID.value, work)
    }

    // MARK: Writing

    struct SnapshotInput: Decodable {
        struct Section: Decodable { var id: String; var items: [String] }
        var sections: [Section]
        var animatingDifferences: Bool?
        var ifVersion: Int?
    }

    func putSnapshot(_ request: Request, _ list: LiveList) async throws -> Response {
        let input: SnapshotInput = try decodeBody(request)
        try input.validate()
        var replacement = Snapshot<String, String>()
        do throws(SnapshotError) {
            for section in input.sections {
                try replacement.appendSections([section.id])
                try replacement.appendItems(section.items, toSection: section.id)
            }
        } catch {
            throw APIFailure.snapshot(error, index: nil)
        }
        if let unknown = replacement.itemIdentifiers.first(where: { list.demo.data(for: $0) == nil }) {
            throw APIFailure.unknownItem(unknown, index: nil)
        }
        let finished = replacement
        return try await apply(list, ifVersion: input.ifVersion, animating: input.animatingDifferences ?? true) { snapshot throws(APIFailure) in
            snapshot = finished
        }
    }

    struct OperationsInput: Decodable {
        var operations: [SnapshotOperation]
        var animatingDifferences: Bool?
        var ifVersion: Int?
    }

    func applyOperations(_ request: Request, _ list: LiveList) async throws -> Response {
        let input: OperationsInput = try decodeBody(request)
        try input.validate()
        if input.operations.isEmpty {
            // Nothing to apply: the version stays (a conflicting ifVersion is still a 409).
            let version = list.version
            if let expected = input.ifVersion, expected != version { throw APIFailure.conflict(current: version, expected: expected) }
            return ApplyResult(version: version, changes: .none).response
        }
        return try await apply(list, ifVersion: input.ifVersion, animating: input.animatingDifferences ?? true) { snapshot throws(APIFailure) in
            for (index, operation) in input.operations.enumerated() {
                if let unknown = operation.newItems.first(where: { list.demo.data(for: $0) == nil }) {
                    throw .unknownItem(unknown, index: index)
                }
                do throws(SnapshotError) { try operation.apply(to: &snapshot) } catch { throw .snapshot(error, index: index) }
            }
            // The list's size is checked where every write is: the data source refuses it.
        }
    }

    /// Applies a change atomically (and only at `ifVersion`, when given); a failure applies
    /// and streams nothing.
    private func apply(_ list: LiveList, ifVersion: Int?, animating: Bool,
                       _ change: @escaping @Sendable (inout Snapshot<String, String>) throws(APIFailure) -> Void) async throws -> Response {
        // The answer's figures only: the update itself holds the new snapshot, and kept while the
        // store saves the change it would make the list's next write copy its whole storage.
        let result = try await list.edit { transaction -> ApplyResult? in
            guard let update = try transaction.update(ifVersion: ifVersion, animatingDifferences: animating, change) else { return nil }
            let changes = update.changeset
            return ApplyResult(version: update.version, changes: .init(
                sectionsInserted: changes.sectionInsertions.count, sectionsDeleted: changes.sectionDeletions.count,
                sectionsMoved: changes.sectionMoves.count, itemsInserted: changes.itemInsertions.count,
                itemsDeleted: changes.itemDeletions.count, itemsMoved: changes.itemMoves.count,
                itemsReloaded: changes.itemReloads.count, itemsReconfigured: changes.itemReconfigures.count))
        }
        guard let result else {
            throw APIFailure.conflict(current: list.version, expected: ifVersion ?? -1)
        }
        return result.response
    }

    struct ApplyResult: Sendable {
        struct Changes: Sendable {
            var sectionsInserted, sectionsDeleted, sectionsMoved, itemsInserted, itemsDeleted, itemsMoved, itemsReloaded, itemsReconfigured: Int
            static let none = Changes(sectionsInserted: 0, sectionsDeleted: 0, sectionsMoved: 0, itemsInserted: 0,
                                      itemsDeleted: 0, itemsMoved: 0, itemsReloaded: 0, itemsReconfigured: 0)
        }
        var version: Int
        var changes: Changes

        /// The answer, written directly (the hottest write path: `JSONEncoder` was ~7% of it).
        var response: Response {
            var writer = JSONWriter(capacity: 220)
            writer.raw("{\"version\":"); writer.int(version)
            writer.raw(",\"changes\":{\"sectionsInserted\":"); writer.int(changes.sectionsInserted)
            writer.raw(",\"sectionsDeleted\":"); writer.int(changes.sectionsDeleted)
            writer.raw(",\"sectionsMoved\":"); writer.int(changes.sectionsMoved)
            writer.raw(",\"itemsInserted\":"); writer.int(changes.itemsInserted)
            writer.raw(",\"itemsDeleted\":"); writer.int(changes.itemsDeleted)
            writer.raw(",\"itemsMoved\":"); writer.int(changes.itemsMoved)
            writer.raw(",\"itemsReloaded\":"); writer.int(changes.itemsReloaded)
            writer.raw(",\"itemsReconfigured\":"); writer.int(changes.itemsReconfigured)
            writer.raw("}}")
            return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
        }
    }

    // MARK: Helpers

    func requireJSONOrEmpty(_ request: Request) throws {
        guard request.body.isEmpty || request.isJSON else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send application/json")
        }
    }

    func decodeBody<T: Decodable>(_ request: Request) throws -> T {
        guard request.isJSON else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send application/json")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(request.body))
        } catch let error as SnapshotOperation.DecodingFailure {
            throw HTTPError(.badRequest, code: "invalid_operation", message: error.description)
        } catch let DecodingError.keyNotFound(key, context) {
            throw HTTPError(.badRequest, code: "malformed_json", message: "Missing \(Self.path(context.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw HTTPError(.badRequest, code: "malformed_json", message: "Wrong type at \(Self.path(context.codingPath))")
        } catch let DecodingError.valueNotFound(_, context) {
            throw HTTPError(.badRequest, code: "malformed_json", message: "Missing value at \(Self.path(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw HTTPError(.badRequest, code: "malformed_json", message: "Invalid or out-of-range value at \(Self.path(context.codingPath))")
        } catch {
            throw HTTPError(.badRequest, code: "malformed_json", message: "The body is not valid JSON for this request")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    func jsonResponse<T: Encodable>(_ value: T, status: HTTPStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Response.json(try encoder.encode(value), status: status)
    }
}

/// Why an API write was refused; answered as `{"error", "message", "index"?}` (see
/// `WebApp.httpError(for:)`, where every error becomes a response).
enum APIFailure: Error {
    case conflict(current: Int, expected: Int)
    case snapshot(SnapshotError, index: Int?)
    case unknownItem(String, index: Int?)
    case listTooLarge(String)

    var httpError: HTTPError {
        let (status, code, message, index): (HTTPStatus, String, String, Int?) = switch self {
        case .conflict(let current, let expected):
            (.conflict, "version_conflict", "The snapshot is at version \(current), not \(expected)", nil)
        case .snapshot(let error, let index):
            (.unprocessableContent, error.code, error.description, index)
        case .unknownItem(let item, let index):
            (.notFound, "unknown_item", "The demo has no item “\(item)”", index)
        case .listTooLarge(let what):
            (.unprocessableContent, "list_too_large", "The change would leave \(what)", nil)
        }
        return HTTPError(status, code: code, message: message, details: index.map { ["index": $0] } ?? [:])
    }
}
