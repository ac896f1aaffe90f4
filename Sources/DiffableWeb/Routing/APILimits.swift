import DiffableDataSources
import MicroHTTP

/// The limits of the JSON API, as the OpenAPI document states them, enforced on every path
/// that writes a list (`PUT …/snapshot`, `POST …/operations`, and the demos' own actions).
///
/// Shape limits (how much one request may carry) are checked before anything is applied and
/// answer `400 limit_exceeded`; the size of the resulting list depends on the list's state and
/// answers `422 list_too_large`. Either way the snapshot is left exactly as it was.
enum APILimits {
    /// Items in one list, whichever path writes it.
    static let maxItems = 100_000
    /// Sections in one list.
    static let maxSections = 1_000
    /// Operations in one `POST …/operations` batch.
    static let maxOperations = 1_000
    /// Identifiers in one operation's list (and in one section of a `PUT`).
    static let maxIdentifiersPerList = 20_000
    /// Characters (Unicode scalars, as JSON Schema counts them) in a section or item identifier.
    static let identifierLength = 1...200
    /// `ifVersion` and other versions: what a JSON number holds exactly (2⁵³ − 1).
    static let versionRange = 0...9_007_199_254_740_991

    static func checkIdentifier(_ id: String, at path: @autoclosure () -> String) throws(HTTPError) {
        // Cheap first: a UTF-8 count of at most 200 is at most 200 scalars.
        let bytes = id.utf8.count
        if bytes >= identifierLength.lowerBound, bytes <= identifierLength.upperBound { return }
        let length = id.unicodeScalars.count
        guard identifierLength.contains(length) else {
            throw HTTPError(.badRequest, code: "limit_exceeded",
                            message: "\(path()) is \(length) characters long; identifiers are \(identifierLength.lowerBound)…\(identifierLength.upperBound)")
        }
    }

    static func checkIdentifiers(_ ids: [String], at path: @autoclosure () -> String) throws(HTTPError) {
        guard ids.count <= maxIdentifiersPerList else {
            throw HTTPError(.badRequest, code: "limit_exceeded",
                            message: "\(path()) has \(ids.count.grouped) identifiers; at most \(maxIdentifiersPerList.grouped)")
        }
        for (index, id) in ids.enumerated() { try checkIdentifier(id, at: "\(path())[\(index)]") }
    }

    /// A list in a request body (`sections`, `operations`) of at most `limit` entries.
    static func checkCount(_ count: Int, of name: String, atMost limit: Int) throws(HTTPError) {
        guard count > limit else { return }
        throw HTTPError(.badRequest, code: "limit_exceeded", message: "\(name) has \(count.grouped) entries; at most \(limit.grouped)")
    }

    static func checkVersion(_ version: Int?, name: String = "ifVersion") throws(HTTPError) {
        guard let version, !versionRange.contains(version) else { return }
        throw HTTPError(.badRequest, code: "invalid_version",
                        message: "\(name) must be an integer in 0…\(versionRange.upperBound), or null")
    }

    /// Why a write may not leave a list as `snapshot` (too many items or sections), or `nil`.
    /// The one check of a list's size: every list's data source refuses such an apply
    /// (``LiveList``: `DiffableDataSource.admission`), whoever applies — a route, a demo's
    /// action, a demo's own write. - Complexity: O(1).
    static func sizeFailure(of snapshot: Snapshot<String, String>) -> APIFailure? {
        if snapshot.numberOfItems > maxItems { return .listTooLarge("\(snapshot.numberOfItems.grouped) items; a list holds at most \(maxItems.grouped)") }
        if snapshot.numberOfSections > maxSections { return .listTooLarge("\(snapshot.numberOfSections.grouped) sections; a list holds at most \(maxSections.grouped)") }
        return nil
    }
}

extension WebApp.SnapshotInput {
    func validate() throws(HTTPError) {
        try APILimits.checkVersion(ifVersion)
        try APILimits.checkCount(sections.count, of: "sections", atMost: APILimits.maxSections)
        var total = 0
        for (index, section) in sections.enumerated() {
            try APILimits.checkIdentifier(section.id, at: "sections[\(index)].id")
            try APILimits.checkIdentifiers(section.items, at: "sections[\(index)].items")
            total += section.items.count
        }
        guard total <= APILimits.maxItems else {
            throw HTTPError(.badRequest, code: "limit_exceeded",
                            message: "the snapshot has \(total.grouped) items; a list holds at most \(APILimits.maxItems.grouped)")
        }
    }
}

extension WebApp.OperationsInput {
    func validate() throws(HTTPError) {
        try APILimits.checkVersion(ifVersion)
        try APILimits.checkCount(operations.count, of: "operations", atMost: APILimits.maxOperations)
        for (index, operation) in operations.enumerated() { try operation.validate(at: "operations[\(index)]") }
    }
}

extension SnapshotOperation {
    func validate(at path: String) throws(HTTPError) {
        switch self {
        case .appendSections(let ids), .deleteSections(let ids), .reloadSections(let ids):
            try APILimits.checkIdentifiers(ids, at: "\(path).sections")
        case .insertSections(let ids, let before, let after):
            try APILimits.checkIdentifiers(ids, at: "\(path).sections")
            try anchors(before, after, "Section", path)
        case .moveSection(let id, let before, let after):
            try APILimits.checkIdentifier(id, at: "\(path).section")
            try anchors(before, after, "Section", path)
        case .appendItems(let ids, let section):
            try APILimits.checkIdentifiers(ids, at: "\(path).items")
            if let section { try APILimits.checkIdentifier(section, at: "\(path).section") }
        case .insertItems(let ids, let before, let after):
            try APILimits.checkIdentifiers(ids, at: "\(path).items")
            try anchors(before, after, "Item", path)
        case .deleteItems(let ids), .reloadItems(let ids), .reconfigureItems(let ids):
            try APILimits.checkIdentifiers(ids, at: "\(path).items")
        case .moveItem(let id, let before, let after):
            try APILimits.checkIdentifier(id, at: "\(path).item")
            try anchors(before, after, "Item", path)
        case .deleteAllItems:
            break
        }
    }

    private func anchors(_ before: String?, _ after: String?, _ kind: String, _ path: String) throws(HTTPError) {
        if let before { try APILimits.checkIdentifier(before, at: "\(path).before\(kind)") }
        if let after { try APILimits.checkIdentifier(after, at: "\(path).after\(kind)") }
    }
}
