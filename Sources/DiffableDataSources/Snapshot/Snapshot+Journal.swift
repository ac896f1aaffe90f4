import Synchronization

// The journal: which items a snapshot's mutations touched since it was taken from a data source.
//
// A data source stamps every snapshot it makes current with a fresh token (`base`). A copy of that
// snapshot carries the token, and each item mutation on the copy notes the items it inserted,
// removed or moved. When the copy is applied back, every item it does not name kept its section
// and its order relative to the other unnamed items, so the changeset can be found from the named
// items alone (``Changeset/init(from:to:)``), in O(k log k) for k of them, instead of by a diff
// over every item. Section mutations, and journals that grow past ``Journal/capacity``, drop the
// token: such a snapshot is diffed as before. The journal is bookkeeping, not content: equality
// ignores it.

/// Source of the tokens that stamp committed snapshots (0 means "not stamped").
@usableFromInline let snapshotJournalTokens = Atomic<UInt64>(0)

extension Snapshot {
    @usableFromInline
    struct Journal: Sendable {
        /// The token of the committed snapshot this one was derived from; 0 when none.
        @usableFromInline var base: UInt64 = 0
        /// Items inserted, removed or moved since then (possibly repeated), in order.
        @usableFromInline var touched: [ItemID] = []
        /// Past this many noted items the journal is dropped: the diff is then as cheap.
        @inlinable static var capacity: Int { 4096 }
        @inlinable init() {}
        @inlinable init(base: UInt64) { self.base = base }
    }

    /// This snapshot, stamped as the base of future journals (the data source does it on commit).
    @usableFromInline func stampedForJournal() -> Snapshot {
        var copy = self
        copy.journal = Journal(base: snapshotJournalTokens.add(1, ordering: .relaxed).newValue)
        return copy
    }

    /// Notes items touched by a mutation (no-op on an unstamped snapshot).
    @inlinable mutating func journalNote(_ items: UnsafeBufferPointer<ItemID>) {
        guard journal.base != 0 else { return }
        if journal.touched.count + items.count > Journal.capacity {
            journal = Journal()
        } else {
            journal.touched.append(contentsOf: items)
        }
    }

    @inlinable mutating func journalNote(_ items: [ItemID]) {
        guard journal.base != 0 else { return }
        items.withUnsafeBufferPointer { journalNote($0) }
    }

    /// Drops the journal: a change it cannot describe (sections added, removed or moved).
    @inlinable mutating func journalDrop() {
        if journal.base != 0 { journal = Journal() }
    }

    /// Whether `new` was derived from exactly this snapshot by item mutations the journal names.
    @inlinable func isJournalBase(of new: Snapshot) -> Bool {
        journal.base != 0 && journal.base == new.journal.base && journal.touched.isEmpty
    }
}
