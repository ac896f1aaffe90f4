import SeededRandom
import Testing
@testable import DiffableDataSources

/// The obvious model of a selection: an array of items, UIKit's rules written out over the list's
/// flat array of items, and an apply as "keep what is still there and was not reloaded".
/// Property tests run the same operations on both and compare.
struct SelectionModel {
    var settings = SelectionSettings()
    var selected: [Int] = []
    var anchor: Int?
    var extent: Int?

    /// What an operation changed: selected, deselected, primary action.
    typealias Outcome = (selected: [Int], deselected: [Int], primaryAction: Int?)

    var allowed: Bool { settings.allowsSelection && (!settings.isEditing || settings.allowsSelectionDuringEditing || settings.allowsMultipleSelectionDuringEditing) }
    var multiple: Bool { settings.allowsSelection && (settings.isEditing ? settings.allowsMultipleSelectionDuringEditing : settings.allowsMultipleSelection) }

    mutating func tap(_ item: Int, canSelect: (Int) -> Bool, canDeselect: (Int) -> Bool) -> Outcome {
        let primary = settings.isEditing ? nil : item
        guard allowed else { return ([], [], primary) }
        if multiple {
            if selected.contains(item) {
                guard canDeselect(item) else { return ([], [], nil) }
                selected.removeAll { $0 == item }
                anchor = item; extent = nil
                return ([], [item], nil)
            }
            let first = selected.isEmpty ? primary : nil
            guard canSelect(item) else { return ([], [], first) }
            selected.append(item)
            anchor = item; extent = nil
            return ([item], [], first)
        }
        guard canSelect(item) else { return ([], [], primary) }
        let others = selected.filter { $0 != item }
        guard others.allSatisfy(canDeselect) else { return ([], [], primary) }
        let added = selected.contains(item) ? [] : [item]
        selected = [item]
        anchor = item; extent = nil
        return (added, others, primary)
    }

    mutating func extend(to item: Int, in list: [Int], canSelect: (Int) -> Bool, canDeselect: (Int) -> Bool) -> Outcome {
        guard multiple else { return tap(item, canSelect: canSelect, canDeselect: canDeselect) }
        func range(_ a: Int, _ b: Int) -> [Int] {
            guard let i = list.firstIndex(of: a), let j = list.firstIndex(of: b) else { return [] }
            return Array(list[min(i, j)...max(i, j)])
        }
        let start = anchor.flatMap { list.contains($0) ? $0 : nil }
        let previous = start.flatMap { start in extent.map { range(start, $0) } } ?? []
        let new = range(start ?? item, item)
        let deselected = previous.filter { !new.contains($0) && selected.contains($0) && canDeselect($0) }
        selected.removeAll { deselected.contains($0) }
        let added = new.filter { !selected.contains($0) && canSelect($0) }
        selected += added
        anchor = start ?? item; extent = item
        return (added, deselected, nil)
    }

    mutating func select(_ item: Int) -> Outcome {
        guard allowed else { return ([], [], nil) }
        let removed = multiple ? [] : selected.filter { $0 != item }
        selected.removeAll { removed.contains($0) }
        let added = selected.contains(item) ? [] : [item]
        selected += added
        anchor = item; extent = nil
        return (added, removed, nil)
    }

    /// `nil` when "add" semantics must be refused in single selection.
    mutating func add(_ items: [Int]) -> Outcome? {
        guard allowed else { return ([], [], nil) }
        var added: [Int] = []
        for item in items where !selected.contains(item) && !added.contains(item) { added.append(item) }
        if !multiple && selected.count + added.count > 1 { return nil }
        selected += added
        if let last = added.last { anchor = last; extent = nil }
        return (added, [], nil)
    }

    mutating func deselect(_ item: Int) -> Outcome {
        guard selected.contains(item) else { return ([], [], nil) }
        selected.removeAll { $0 == item }
        return ([], [item], nil)
    }

    mutating func deselectAll() -> Outcome {
        defer { selected = []; anchor = nil; extent = nil }
        return ([], selected, nil)
    }

    mutating func selectAll(_ list: [Int]) -> Outcome {
        guard multiple else { return ([], [], nil) }
        let added = list.filter { !selected.contains($0) }
        selected += added
        return (added, [], nil)
    }

    mutating func setSettings(_ new: SelectionSettings) -> Outcome {
        settings = new
        if !allowed { return deselectAll() }
        if !multiple && selected.count > 1 {
            let removed = Array(selected.dropFirst())
            selected = [selected[0]]
            extent = nil
            return ([], removed, nil)
        }
        return ([], [], nil)
    }

    /// An apply: items no longer listed, reloaded, or in a reloaded section leave the selection.
    mutating func apply(list: [Int], reloaded: Set<Int>) -> Outcome {
        if let a = anchor, !list.contains(a) { anchor = nil; extent = nil }
        if let e = extent, !list.contains(e) { extent = nil }
        let leaving = selected.filter { !list.contains($0) || reloaded.contains($0) }
        selected.removeAll { leaving.contains($0) }
        return ([], leaving, nil)
    }
}

@Suite("Selection: random operations agree with a simple model, and keep the invariants")
struct SelectionPropertyTests {
    /// The state both sides share for one run.
    struct Run {
        var rng: SeededRandom
        let dataSource = DiffableDataSource<String, Int>()
        var selection = ItemSelection<Int>()
        var model = SelectionModel()
        var nextItem = 0
        /// Items the delegate will not let be selected, or deselected, this run.
        let unselectable: Int
        let undeselectable: Int

        init(seed: UInt64) throws {
            rng = SeededRandom(seed: seed)
            unselectable = Int.random(in: 5...9, using: &rng)
            undeselectable = Int.random(in: 5...9, using: &rng)
            var snapshot = Snapshot<String, Int>()
            for section in ["a", "b", "c"] {
                try snapshot.appendSections([section])
                try snapshot.appendItems(fresh(Int.random(in: 0...8, using: &rng)), toSection: section)
            }
            dataSource.apply(snapshot)
        }

        mutating func fresh(_ count: Int) -> [Int] {
            defer { nextItem += count }
            return Array(nextItem..<(nextItem + count))
        }


        /// An item of the list, or (one time in eight) one it does not contain.
        mutating func anyItem(_ list: [Int]) -> Int {
            list.isEmpty || Int.random(in: 0..<8, using: &rng) == 0 ? -1 : list.randomElement(using: &rng) ?? -1
        }

        mutating func randomSettings() -> SelectionSettings {
            func flag(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &rng) != 0 }
            return SelectionSettings(allowsSelection: flag(6), allowsMultipleSelection: Bool.random(using: &rng),
                                     allowsSelectionDuringEditing: Bool.random(using: &rng),
                                     allowsMultipleSelectionDuringEditing: Bool.random(using: &rng), isEditing: !flag(3))
        }

        /// A random apply: moves, deletions, insertions, reconfigures, reloads, a reloaded or new
        /// section now and then, sometimes as a reset.
        mutating func randomApply() throws -> (DataSourceUpdate<String, Int>, Set<Int>) {
            var snapshot = dataSource.snapshot()
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let items = snapshot.itemIdentifiers
                switch Int.random(in: 0..<8, using: &rng) {
                case 0 where !items.isEmpty:
                    try snapshot.deleteItems([items.randomElement(using: &rng) ?? 0])
                case 1 where items.count > 1:
                    let item = items.randomElement(using: &rng) ?? 0, anchor = items.randomElement(using: &rng) ?? 0
                    if item != anchor { try snapshot.moveItem(item, afterItem: anchor) }
                case 2:
                    let section = snapshot.sectionIdentifiers.randomElement(using: &rng) ?? "a"
                    try snapshot.appendItems(fresh(Int.random(in: 1...3, using: &rng)), toSection: section)
                case 3 where !items.isEmpty:
                    try snapshot.reconfigureItems([items.randomElement(using: &rng) ?? 0])
                case 4 where !items.isEmpty:
                    try snapshot.reloadItems([items.randomElement(using: &rng) ?? 0])
                case 5 where snapshot.numberOfSections > 1 && Int.random(in: 0..<3, using: &rng) == 0:
                    try snapshot.deleteSections([snapshot.sectionIdentifiers.randomElement(using: &rng) ?? "a"])
                case 6 where Int.random(in: 0..<3, using: &rng) == 0:
                    try snapshot.reloadSections([snapshot.sectionIdentifiers.randomElement(using: &rng) ?? "a"])
                case 7 where Int.random(in: 0..<4, using: &rng) == 0:
                    let section = "s\(nextItem)"
                    nextItem += 1
                    try snapshot.appendSections([section])
                    try snapshot.appendItems(fresh(2), toSection: section)
                default:
                    break
                }
            }
            // What the model deselects: reloaded items, and the items of reloaded sections that
            // the previous list had (a section new in this apply is an insertion, not a reload).
            let previous = dataSource.snapshot()
            var reloaded = Set(snapshot.reloadedItemIdentifiers)
            for section in snapshot.reloadedSectionIdentifiers where previous.contains(section: section) {
                reloaded.formUnion(try snapshot.itemIdentifiers(inSection: section))
            }
            let update = Int.random(in: 0..<5, using: &rng) == 0
                ? dataSource.applySnapshotUsingReloadData(snapshot) : dataSource.apply(snapshot)
            return (update, reloaded)
        }

        /// One random operation on both sides; they must agree on the outcome and the state.
        mutating func step() throws {
            let snapshot = dataSource.snapshot()
            let list = snapshot.itemIdentifiers
            let before = selection
            // The delegate's answers, as closures that do not capture the run being changed.
            let (unselectable, undeselectable) = (self.unselectable, self.undeselectable)
            let canSelect = { (item: Int) in item % unselectable != 0 }
            let canDeselect = { (item: Int) in item % undeselectable != 0 }
            var outcome: SelectionModel.Outcome?
            var change: SelectionChange<Int>?
            var expectUserInteraction = false
            let item = anyItem(list)
            let known = item >= 0
            switch Int.random(in: 0..<12, using: &rng) {
            case 0, 1, 2:
                expectUserInteraction = true
                if known { outcome = model.tap(item, canSelect: canSelect, canDeselect: canDeselect) }
                change = try? selection.tap(item, in: snapshot, shouldSelect: canSelect, shouldDeselect: canDeselect)
            case 3, 4:
                expectUserInteraction = true
                if known { outcome = model.extend(to: item, in: list, canSelect: canSelect, canDeselect: canDeselect) }
                change = try? selection.extend(to: item, in: snapshot, shouldSelect: canSelect, shouldDeselect: canDeselect)
            case 5:
                if known { outcome = model.select(item) }
                change = try? selection.selectItem(item, in: snapshot)
            case 6:
                let items = [item, anyItem(list)]
                if !items.contains(-1) { outcome = model.add(items) }
                change = try? selection.selectItems(items, in: snapshot)
            case 7:
                outcome = model.deselect(item)
                change = selection.deselectItem(item)
            case 8:
                if Bool.random(using: &rng) {
                    outcome = model.deselectAll(); change = selection.deselectAll()
                } else {
                    outcome = model.selectAll(list); change = selection.selectAll(in: snapshot)
                }
            case 9:
                let settings = randomSettings()
                outcome = model.setSettings(settings)
                change = selection.setSettings(settings)
            default:
                let (update, reloaded) = try randomApply()
                outcome = model.apply(list: update.snapshot.itemIdentifiers, reloaded: reloaded)
                change = selection.reconcile(with: update)
            }
            if let outcome, let change {
                #expect(change.selected == outcome.selected)
                #expect(change.deselected == outcome.deselected)
                #expect(change.primaryActionItem == outcome.primaryAction)
                #expect(change.isUserInteraction == expectUserInteraction)
            } else {
                // Rejected on both sides, and the rejected operation changed nothing.
                #expect(outcome == nil && change == nil)
                #expect(selection == before)
            }
        }

        /// The invariants, and agreement with the model.
        func check() -> Bool {
            let snapshot = dataSource.snapshot()
            let broken = selection._brokenInvariant(in: snapshot)
            #expect(broken == nil)
            #expect(selection.selectedItems == model.selected)
            #expect(selection.settings == model.settings)
            #expect(selection.anchor == model.anchor && selection.extent == model.extent)
            #expect(Set(selection.selectedItems).isSubset(of: snapshot.itemIdentifiers))
            if !selection.settings.allowsSelectionNow { #expect(selection.isEmpty) }
            if !selection.settings.allowsMultipleSelectionNow { #expect(selection.count <= 1) }
            return broken == nil && selection.selectedItems == model.selected && selection.anchor == model.anchor
                && selection.extent == model.extent
        }
    }

    @Test("300 random taps, Shift-clicks, selects, settings changes and applies per seed agree with the model", arguments: 1...40)
    func agreesWithModel(seed: UInt64) throws {
        var run = try Run(seed: seed)
        for _ in 0..<300 {
            try run.step()
            if !run.check() { return }
        }
    }
}
