import DiffableDataSources

/// One operation of `POST …/operations`, decoded from `{"op": "moveItem", "item": …, "beforeItem": …}`.
enum SnapshotOperation: Decodable {
    case appendSections([String])
    case insertSections([String], before: String?, after: String?)
    case deleteSections([String])
    case moveSection(String, before: String?, after: String?)
    case appendItems([String], section: String?)
    case insertItems([String], before: String?, after: String?)
    case deleteItems([String])
    case deleteAllItems
    case moveItem(String, before: String?, after: String?)
    case reloadItems([String])
    case reconfigureItems([String])
    case reloadSections([String])

    struct DecodingFailure: Error, CustomStringConvertible {
        var description: String
    }

    private enum Key: String, CodingKey {
        case op, sections, section, beforeSection, afterSection, items, item, beforeItem, afterItem
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let op = try c.decode(String.self, forKey: .op)
        func anchor(_ before: Key, _ after: Key) throws -> (String?, String?) {
            let b = try c.decodeIfPresent(String.self, forKey: before), a = try c.decodeIfPresent(String.self, forKey: after)
            guard (b == nil) != (a == nil) else {
                throw DecodingFailure(description: "\(op) needs exactly one of \(before.rawValue) and \(after.rawValue)")
            }
            return (b, a)
        }
        switch op {
        case "appendSections": self = .appendSections(try c.decode([String].self, forKey: .sections))
        case "insertSections":
            let (b, a) = try anchor(.beforeSection, .afterSection)
            self = .insertSections(try c.decode([String].self, forKey: .sections), before: b, after: a)
        case "deleteSections": self = .deleteSections(try c.decode([String].self, forKey: .sections))
        case "moveSection":
            let (b, a) = try anchor(.beforeSection, .afterSection)
            self = .moveSection(try c.decode(String.self, forKey: .section), before: b, after: a)
        case "appendItems": self = .appendItems(try c.decode([String].self, forKey: .items), section: try c.decodeIfPresent(String.self, forKey: .section))
        case "insertItems":
            let (b, a) = try anchor(.beforeItem, .afterItem)
            self = .insertItems(try c.decode([String].self, forKey: .items), before: b, after: a)
        case "deleteItems": self = .deleteItems(try c.decode([String].self, forKey: .items))
        case "deleteAllItems": self = .deleteAllItems
        case "moveItem":
            let (b, a) = try anchor(.beforeItem, .afterItem)
            self = .moveItem(try c.decode(String.self, forKey: .item), before: b, after: a)
        case "reloadItems": self = .reloadItems(try c.decode([String].self, forKey: .items))
        case "reconfigureItems": self = .reconfigureItems(try c.decode([String].self, forKey: .items))
        case "reloadSections": self = .reloadSections(try c.decode([String].self, forKey: .sections))
        default: throw DecodingFailure(description: "Unknown operation “\(op)”")
        }
    }

    /// Identifiers this operation brings into the snapshot (they must exist in the demo).
    var newItems: [String] {
        switch self {
        case .appendItems(let items, _), .insertItems(let items, _, _): items
        default: []
        }
    }

    func apply(to snapshot: inout Snapshot<String, String>) throws(SnapshotError) {
        switch self {
        case .appendSections(let ids): try snapshot.appendSections(ids)
        case .insertSections(let ids, let before?, _): try snapshot.insertSections(ids, beforeSection: before)
        case .insertSections(let ids, _, let after): try snapshot.insertSections(ids, afterSection: after ?? "")
        case .deleteSections(let ids): try snapshot.deleteSections(ids)
        case .moveSection(let id, let before?, _): try snapshot.moveSection(id, beforeSection: before)
        case .moveSection(let id, _, let after): try snapshot.moveSection(id, afterSection: after ?? "")
        case .appendItems(let ids, let section): try snapshot.appendItems(ids, toSection: section)
        case .insertItems(let ids, let before?, _): try snapshot.insertItems(ids, beforeItem: before)
        case .insertItems(let ids, _, let after): try snapshot.insertItems(ids, afterItem: after ?? "")
        case .deleteItems(let ids): try snapshot.deleteItems(ids)
        case .deleteAllItems: snapshot.deleteAllItems()
        case .moveItem(let id, let before?, _): try snapshot.moveItem(id, beforeItem: before)
        case .moveItem(let id, _, let after): try snapshot.moveItem(id, afterItem: after ?? "")
        case .reloadItems(let ids): try snapshot.reloadItems(ids)
        case .reconfigureItems(let ids): try snapshot.reconfigureItems(ids)
        case .reloadSections(let ids): try snapshot.reloadSections(ids)
        }
    }
}
