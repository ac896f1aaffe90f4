import CompositionalLayout
import DiffableWeb

/// Apple's "UITableView: Editing" screen, as a list of people in two sections (Favorites and
/// Others): Edit enters editing mode (UIKit's `setEditing(_:animated:)`, kept by the server for
/// every tab of the session); each row then shows its delete and multiselect circles and its
/// reorder handle (``CellAccessory``, shown by editing state). The delete circle reveals a
/// Delete button, which deletes the row through ``delete(_:from:)``; rows are dragged between
/// and within sections; a multiple selection (while editing only) goes at once with Delete
/// selected. My Card can be neither deleted nor moved (`canEditRowAt`, `canMoveRowAt`).
///
/// Out of editing mode each row has a detail (info) button, UITableView's
/// `detailDisclosureButton`: its tap (`accessoryButtonTapped(for:)`) shows the person's card in
/// the pane above the list. A row holding a button of its own, the page is the grid pattern
/// (`rowsHoldControls`).
public struct Editing: BuiltInList, SelectableList, AccessorizedList, DeletableList, Reorderable, SupplementaryViews, PageState {
    public static let name = "editing"
    public static let title = "Editing"
    public static let summary = "UITableView's editing mode: delete with confirmation, reorder, and select several rows to delete at once."
    public static let cellTemplate = "cells/contact"
    public static let cellTemplates = ["cells/contact", "cells/header"]
    public static let pageTemplate = "demos/editing"

    static let sections = [("favorites", "Favorites"), ("others", "Others")]

    /// People deleted since the list was made (for scripts: `details`).
    var deleted = 0
    /// The person whose card the pane shows (their detail button was tapped).
    var card: String?

    public enum Action: WebListAction {
        case deleteSelected
        case restore
        case closeCard

        public static let descriptions = [
            "closeCard": "Close the card a row's detail (info) button opened",
            "deleteSelected": "Delete the selected people (selected in editing mode)",
            "restore": "Bring back everyone deleted, at the end of their section",
        ]
    }

    public struct Cell: Encodable {
        let id: String
        let name: String
        let detail: String
        let me: Bool?
    }

    /// The pane above the list: the card a detail button opened.
    public struct PageValues: Encodable {
        let card: Bool
        let cardName: String
        let cardSummary: String
    }

    public init() {}

    public func initialSnapshot() throws -> Snapshot<String, String> {
        try Snapshot(["favorites": Contacts.favorites.map(\.id), "others": Contacts.others.map(\.id)])
    }

    /// An inset grouped table with section headers and each section's card (List appearances'
    /// layout), as Settings-style editing screens are.
    public func layout() -> CompositionalLayout { ListAppearance.insetGrouped.layout }

    public func cell(for item: String) -> Cell? {
        Contacts.byID[item].map { Cell(id: $0.id, name: $0.name, detail: $0.detail, me: $0.id == Contacts.me ? true : nil) }
    }

    public func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
        guard kind == .header, let title = Self.sections.first(where: { $0.0 == section })?.1 else { return nil }
        let count = (try? list.numberOfItems(inSection: section)) ?? 0
        return Header(title: title, detail: count == 1 ? "1 person" : "\(count) people")
    }

    public struct Header: TemplatedCell {
        public let template = "cells/header"
        let title: String
        let detail: String
    }

    // MARK: Editing

    /// A tap selects one person out of editing mode; while editing taps toggle a multiple
    /// selection (UITableView's `allowsMultipleSelectionDuringEditing`).
    public var selectionSettings: SelectionSettings {
        SelectionSettings(allowsSelection: true, allowsMultipleSelection: false, allowsMultipleSelectionDuringEditing: true)
    }

    /// Every row has its phone label; in editing mode the delete and multiselect circles and
    /// the reorder handle, out of it a detail button and a disclosure indicator (UIKit's
    /// `detailDisclosureButton`). My Card has neither delete nor handle.
    public func accessories(for item: String) -> [CellAccessory] {
        guard let contact = Contacts.byID[item] else { return [] }
        var accessories: [CellAccessory] = [.multiselect(), .label(contact.phone), .detail(displayed: .whenNotEditing),
                                            .disclosureIndicator(displayed: .whenNotEditing)]
        if canDelete(item) { accessories.append(.delete()) }
        if canReorder(item) { accessories.append(.reorder()) }
        return accessories
    }

    public func accessibilityName(for item: String) -> String? { Contacts.byID[item]?.name }

    /// The detail button: the person's card, in the pane.
    public mutating func accessoryButtonTapped(for item: String) { card = item }

    public static var rowsHoldControls: Bool { true }

    public var pageValues: PageValues {
        guard let card, let contact = Contacts.byID[card] else { return PageValues(card: false, cardName: "", cardSummary: "") }
        return PageValues(card: true, cardName: contact.name, cardSummary: "\(contact.detail) · \(contact.phone) phone")
    }

    /// `canEditRowAt`: everyone but the owner's own card.
    public func canDelete(_ item: String) -> Bool { item != Contacts.me }

    public mutating func delete(_ item: String, from list: inout Snapshot<String, String>) throws {
        try list.deleteItems([item])
        deleted += 1
    }

    /// `canMoveRowAt`: My Card stays first.
    public func canReorder(_ item: String) -> Bool { item != Contacts.me }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>, selection: inout ItemSelection<String>) throws {
        guard case .deleteSelected = action else { return try perform(action, on: &list) }
        let deletable = selection.selectedItems.filter(canDelete)
        try list.deleteItems(deletable)
        deleted += deletable.count
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .deleteSelected:
            break  // run with the selection, above
        case .closeCard:
            card = nil
        case .restore:
            for (section, people) in [("favorites", Contacts.favorites), ("others", Contacts.others)] {
                if !list.sectionIdentifiers.contains(section) {
                    if section == "favorites", let first = list.sectionIdentifiers.first {
                        try list.insertSections([section], beforeSection: first)
                    } else {
                        try list.appendSections([section])
                    }
                }
                let missing = people.map(\.id).filter { !list.contains(item: $0) }
                if !missing.isEmpty { try list.appendItems(missing, toSection: section) }
            }
        }
    }

    public func status(of list: Snapshot<String, String>) -> String {
        list.numberOfItems == 1 ? "1 person" : "\(list.numberOfItems) people"
    }

    public func details(of list: Snapshot<String, String>) -> String { "\(deleted) deleted" }
}
