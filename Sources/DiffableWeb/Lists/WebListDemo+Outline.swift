import DiffableDataSources
import Synchronization

// An ``ExpandableOutline`` list's outline in the data source: applied (or restored) when the
// list is made, and expanded and collapsed through the data source with the list's handlers.
extension WebListDemo {
    var hasOutline: Bool { registration.hasOutline }

    /// Gives the data source the list's outline as soon as the list exists.
    func attachOutline(_ handle: ListHandle) {
        Task {
            await handle.write { transaction in try? self.configureOutline(on: transaction) }
        }
    }

    /// Applies the list's outline to its section, once (an action and the attach write may
    /// race; the first one does it).
    func configureOutline(on transaction: ListTransaction) throws(ActionError) {
        guard let outline = current as? any ExpandableOutline, !work.withLock({ $0.outlineConfigured }) else { return }
        try Self.configure(outline, on: transaction)
        work.withLock { $0.outlineConfigured = true }
    }

    private static func configure<Outline: ExpandableOutline>(_ list: Outline, on transaction: ListTransaction) throws(ActionError) {
        let outline = list.initialOutline()
        // A saved outline (something expanded) goes back as it was; else it is the first
        // snapshot's rows, an apply with nothing to animate.
        if !outline.items.allSatisfy({ !outline.isExpanded($0) }), transaction.restore(outline, to: Outline.outlineSection) { return }
        do {
            try transaction.apply(outline, to: Outline.outlineSection, animatingDifferences: false)
        } catch {
            // A script replaced the section's items through the API first (one of them now
            // in another section): the outline cannot be shown as it is.
            throw .unprocessable(code: "not_in_outline", message: "The outline cannot be applied: \(error.description)")
        }
    }

    /// Runs an outline action; `false` when `action` is not one (``ExpandableOutline/disclosure(for:)``).
    func performOutline(_ action: List.Action, on transaction: ListTransaction) throws(ActionError) -> Bool {
        guard let outline = current as? any ExpandableOutline else { return false }
        return try Self.disclose(outline, action, on: transaction, demo: self)
    }

    private static func disclose<Outline: ExpandableOutline>(_ list: Outline, _ action: List.Action, on transaction: ListTransaction,
                                                             demo: WebListDemo) throws(ActionError) -> Bool {
        guard let action = action as? Outline.Action, let disclosure = list.disclosure(for: action) else { return false }
        let item: String
        let expand: Bool
        switch disclosure {
        case .expand(let id): (item, expand) = (id, true)
        case .collapse(let id): (item, expand) = (id, false)
        case .toggle(let id):
            item = id
            expand = !((try? transaction.snapshot(for: Outline.outlineSection))?.isExpanded(id) ?? false)
        }
        guard list.cell(for: item) != nil else { throw .snapshot(.unknownItems([String(item.prefix(80))])) }
        try demo.configureOutline(on: transaction)
        let state = OutlineState(list)
        var handlers = SectionSnapshotHandlers<String>()
        handlers.shouldExpandItem = { item in state.value.withLock { $0.shouldExpand(item) } }
        handlers.willExpandItem = { item in state.value.withLock { $0.willExpand(item) } }
        handlers.shouldCollapseItem = { item in state.value.withLock { $0.shouldCollapse(item) } }
        handlers.willCollapseItem = { item in state.value.withLock { $0.willCollapse(item) } }
        handlers.snapshotForExpandingParent = { parent, subtree in
            state.value.withLock { $0.snapshotForExpandingParent(parent, current: subtree) }
        }
        transaction.sectionSnapshotHandlers = handlers
        let update: DataSourceUpdate<String, String>?
        do {
            update = expand ? try transaction.expand(item) : try transaction.collapse(item)
        } catch .notInOutline {
            throw .unprocessable(code: "not_in_outline", message: "\(list.describe(item)) is not in the outline: \(list.notInOutlineReason(item))")
        } catch {
            throw .unprocessable(code: error.code, message: error.description)
        }
        var changed = state.value.withLock { $0 }
        if !list.isExpandable(item), update == nil {
            // shouldExpandItem refused it (a collapse finds it collapsed already): nothing changed.
            demo.update(changed as? List ?? demo.current)
            throw .unprocessable(code: "not_expandable", message: "\(list.describe(item)) has no children to \(expand ? "expand" : "collapse")")
        }
        if let outline = try? transaction.snapshot(for: Outline.outlineSection) { changed.outlineDidChange(outline) }
        if let changed = changed as? List { demo.update(changed) }
        // The parent's row shows its new disclosure state (when it is shown at all; nothing
        // changed when it was so already).
        if update != nil, transaction.snapshot().contains(item: item) {
            _ = try? transaction.update(animatingDifferences: true) { (snapshot: inout Snapshot<String, String>) throws(SnapshotError) in
                try snapshot.reconfigureItems([item])
            }
        }
        return true
    }
}

/// The list's state while the data source's handlers run on it (they are `@Sendable`
/// closures, called inside the write).
final class OutlineState<Outline: ExpandableOutline>: Sendable {
    let value: Mutex<Outline>
    init(_ value: Outline) { self.value = Mutex(value) }
}
