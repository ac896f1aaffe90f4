import OrderedCollections
// Adding, removing, moving and reloading sections.

extension Snapshot {
    /// Adds sections after the last one.
    ///
    /// ```swift
    /// try snapshot.appendSections(["fruit", "vegetables"])
    /// ```
    /// - Throws: ``SnapshotError/duplicateSections(_:)`` if an identifier is already in the
    ///   snapshot or appears twice.
    /// - Complexity: O(k) for k sections.
    @inlinable public mutating func appendSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        try validateNewSections(identifiers)
        journalDrop()
        for id in identifiers { sections[id] = SectionStorage() }
    }

    /// Inserts sections, in order, before an existing section.
    /// - Throws: ``SnapshotError`` if `beforeSection` is unknown or among the new sections,
    ///   or a new identifier is a duplicate.
    /// - Complexity: O(k + number of sections).
    @inlinable public mutating func insertSections(_ identifiers: [SectionID], beforeSection: SectionID) throws(SnapshotError) {
        try insertSections(identifiers, relativeTo: beforeSection, after: false)
    }

    /// Inserts sections, in order, after an existing section.
    /// - Throws: ``SnapshotError`` as ``insertSections(_:beforeSection:)``.
    /// - Complexity: O(k + number of sections).
    @inlinable public mutating func insertSections(_ identifiers: [SectionID], afterSection: SectionID) throws(SnapshotError) {
        try insertSections(identifiers, relativeTo: afterSection, after: true)
    }

    @inlinable mutating func insertSections(_ identifiers: [SectionID], relativeTo anchor: SectionID, after: Bool) throws(SnapshotError) {
        if identifiers.contains(anchor) { throw .sectionRelativeToItself(String(describing: anchor)) }
        guard let anchorIndex = sections.index(forKey: anchor) else { throw .unknownSections(of: [anchor]) }
        try validateNewSections(identifiers)
        journalDrop()
        var index = after ? anchorIndex + 1 : anchorIndex
        for id in identifiers {
            sections.updateValue(SectionStorage(), forKey: id, insertingAt: index)
            index += 1
        }
    }

    /// Removes sections and every item in them.
    /// - Throws: ``SnapshotError/unknownSections(_:)`` naming the sections not in the snapshot.
    /// - Complexity: O(items removed + number of sections).
    @inlinable public mutating func deleteSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        try validateKnownSections(identifiers)
        journalDrop()
        for id in identifiers {
            guard let storage = sections.removeValue(forKey: id) else { continue }  // listed twice
            var removed: [ItemID] = []
            removed.reserveCapacity(storage.count)
            for chunkID in storage.chunkIDs {
                for item in chunks[chunkID].items { _ = indexRemove(item) }
                removed.append(contentsOf: chunks[chunkID].items)
                freeChunk(chunkID)
            }
            removeMarks(forItems: removed)
            reloadedSections.remove(id)
        }
    }

    /// Moves a section, with its items, before another section.
    /// - Throws: ``SnapshotError`` if either section is unknown or they are the same.
    /// - Complexity: O(number of sections).
    @inlinable public mutating func moveSection(_ identifier: SectionID, beforeSection: SectionID) throws(SnapshotError) {
        try moveSection(identifier, relativeTo: beforeSection, after: false)
    }

    /// Moves a section, with its items, after another section.
    /// - Throws: ``SnapshotError`` as ``moveSection(_:beforeSection:)``.
    /// - Complexity: O(number of sections).
    @inlinable public mutating func moveSection(_ identifier: SectionID, afterSection: SectionID) throws(SnapshotError) {
        try moveSection(identifier, relativeTo: afterSection, after: true)
    }

    @inlinable mutating func moveSection(_ identifier: SectionID, relativeTo anchor: SectionID, after: Bool) throws(SnapshotError) {
        if identifier == anchor { throw .sectionRelativeToItself(String(describing: identifier)) }
        try validateKnownSections([identifier, anchor])
        journalDrop()
        guard let storage = sections.removeValue(forKey: identifier),
              let anchorIndex = sections.index(forKey: anchor) else { return }
        sections.updateValue(storage, forKey: identifier, insertingAt: after ? anchorIndex + 1 : anchorIndex)
    }

    /// Marks sections to be reloaded (their cells re-created) by the next apply.
    /// - Throws: ``SnapshotError/unknownSections(_:)``.
    /// - Complexity: O(k).
    @inlinable public mutating func reloadSections(_ identifiers: [SectionID]) throws(SnapshotError) {
        try validateKnownSections(identifiers)
        reloadedSections.append(contentsOf: identifiers)
    }
}
