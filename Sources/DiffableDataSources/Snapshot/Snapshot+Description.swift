import OrderedCollections
extension Snapshot: CustomStringConvertible, CustomDebugStringConvertible {
    /// A short, readable summary: one line per section with its first items.
    ///
    ///     Snapshot(2 sections, 4 items)
    ///       main: [a, b, c]
    ///       more: [d]
    @inlinable public var description: String {
        var lines = ["Snapshot(\(numberOfSections) section\(numberOfSections == 1 ? "" : "s"), \(numberOfItems) item\(numberOfItems == 1 ? "" : "s"))"]
        let shownSections = 20, shownItems = 10
        for (id, storage) in sections.prefix(shownSections) {
            let firstItems = storage.chunkIDs.lazy.flatMap { chunks[$0].items }.prefix(shownItems).map { String(describing: $0) }
            let more = storage.count > shownItems ? ", … \(storage.count - shownItems) more" : ""
            lines.append("  \(id): [\(firstItems.joined(separator: ", "))\(more)]")
        }
        if sections.count > shownSections { lines.append("  … \(sections.count - shownSections) more sections") }
        return lines.joined(separator: "\n")
    }

    public var debugDescription: String { description }
}
