import DiffableDataSources
import Foundation

/// A changeset's structure as the store keeps it: what ``Snapshot/applying(_:)`` needs to
/// bring the saved identifiers of one version to the next (sections and items deleted,
/// inserted and moved, with their index paths). Reloads and reconfigures change no
/// identifier and are left out.
///
/// A compact JSON object; empty parts are omitted:
/// `{"sd":[[id,index]],"si":[[id,index]],"sm":[[id,from,to]],"d":[[id,section,item]],`
/// `"i":[[id,section,item]],"m":[[id,fromSection,fromItem,toSection,toItem]]}`.
enum StoredChangeset {
    static func encode(_ changes: Changeset<String, String>) -> String {
        var writer = JSONWriter(capacity: 16 + (changes.itemDeletions.count + changes.itemInsertions.count + changes.itemMoves.count) * 24)
        writer.raw("{")
        var first = true
        func key(_ name: StaticString, _ writer: inout JSONWriter) {
            if !first { writer.raw(",") }
            first = false
            writer.raw(name)
        }
        if !changes.sectionDeletions.isEmpty {
            key("\"sd\":", &writer)
            writer.array(changes.sectionDeletions) { w, c in w.raw("["); w.string(c.id); w.raw(","); w.int(c.index); w.raw("]") }
        }
        if !changes.sectionInsertions.isEmpty {
            key("\"si\":", &writer)
            writer.array(changes.sectionInsertions) { w, c in w.raw("["); w.string(c.id); w.raw(","); w.int(c.index); w.raw("]") }
        }
        if !changes.sectionMoves.isEmpty {
            key("\"sm\":", &writer)
            writer.array(changes.sectionMoves) { w, m in
                w.raw("["); w.string(m.id); w.raw(","); w.int(m.from); w.raw(","); w.int(m.to); w.raw("]")
            }
        }
        if !changes.itemDeletions.isEmpty {
            key("\"d\":", &writer)
            writer.array(changes.itemDeletions) { w, c in
                w.raw("["); w.string(c.id); w.raw(","); w.int(c.indexPath.section); w.raw(","); w.int(c.indexPath.item); w.raw("]")
            }
        }
        if !changes.itemInsertions.isEmpty {
            key("\"i\":", &writer)
            writer.array(changes.itemInsertions) { w, c in
                w.raw("["); w.string(c.id); w.raw(","); w.int(c.indexPath.section); w.raw(","); w.int(c.indexPath.item); w.raw("]")
            }
        }
        if !changes.itemMoves.isEmpty {
            key("\"m\":", &writer)
            writer.array(changes.itemMoves) { w, m in
                w.raw("["); w.string(m.id)
                w.raw(","); w.int(m.from.section); w.raw(","); w.int(m.from.item)
                w.raw(","); w.int(m.to.section); w.raw(","); w.int(m.to.item); w.raw("]")
            }
        }
        writer.raw("}")
        return writer.text
    }

    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ text: String) throws -> Changeset<String, String> {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw DecodingError(description: "a stored changeset is not a JSON object")
        }
        func rows(_ key: String, width: Int) throws -> [(String, [Int])] {
            guard let value = object[key] else { return [] }
            guard let array = value as? [[Any]] else { throw DecodingError(description: "stored changeset: \(key) is not an array of arrays") }
            return try array.map { row in
                guard row.count == width, let id = row[0] as? String else {
                    throw DecodingError(description: "stored changeset: a row of \(key) is malformed")
                }
                let numbers = try row.dropFirst().map { value -> Int in
                    guard let number = value as? Int else { throw DecodingError(description: "stored changeset: a row of \(key) is malformed") }
                    return number
                }
                return (id, numbers)
            }
        }
        var changes = Changeset<String, String>()
        changes.sectionDeletions = try rows("sd", width: 2).map { .init(id: $0.0, index: $0.1[0]) }
        changes.sectionInsertions = try rows("si", width: 2).map { .init(id: $0.0, index: $0.1[0]) }
        changes.sectionMoves = try rows("sm", width: 3).map { .init(id: $0.0, from: $0.1[0], to: $0.1[1]) }
        changes.itemDeletions = try rows("d", width: 3).map { .init(id: $0.0, indexPath: IndexPath(item: $0.1[1], section: $0.1[0])) }
        changes.itemInsertions = try rows("i", width: 3).map { .init(id: $0.0, indexPath: IndexPath(item: $0.1[1], section: $0.1[0])) }
        changes.itemMoves = try rows("m", width: 5).map {
            .init(id: $0.0, from: IndexPath(item: $0.1[1], section: $0.1[0]), to: IndexPath(item: $0.1[3], section: $0.1[2]))
        }
        return changes
    }
}
