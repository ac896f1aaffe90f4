// A cell's accessories as markup (docs/protocol.md, "Editing"): each at its edge, in UIKit's
// order, marked with its kind and the editing states it shows in, so that the page's CSS shows
// and hides them by the list's `data-editing` with no cell rendered again.

extension Renderer {
    /// The order UIKit's list cells place trailing accessories in, from the content outwards.
    private static let trailingOrder = ["checkmark", "label", "detail", "customView", "disclosureIndicator", "outlineDisclosure", "reorder"]
    /// And leading ones, from the edge inwards.
    private static let leadingOrder = ["delete", "multiselect", "customView"]

    /// `html` (a cell's content) between its leading and trailing accessories.
    /// - Complexity: O(accessories + html).
    func accessorized(_ html: String, _ content: CellContent) -> String {
        let name = HTMLEscaping.escape(Self.accessibilityName(of: content))
        let leading = content.accessories.filter(\.kind.isLeading)
            .sorted { Self.leadingOrder.firstIndex(of: $0.kind.name) ?? 9 < Self.leadingOrder.firstIndex(of: $1.kind.name) ?? 9 }
        let trailing = content.accessories.filter { !$0.kind.isLeading }
            .sorted { Self.trailingOrder.firstIndex(of: $0.kind.name) ?? 9 < Self.trailingOrder.firstIndex(of: $1.kind.name) ?? 9 }
        var result = "<span class=\"accessories leading\">"
        for accessory in leading { result += markup(of: accessory, name: name) }
        result += "</span><span class=\"cell-content\">" + html + "</span><span class=\"accessories trailing\">"
        for accessory in trailing { result += markup(of: accessory, name: name) }
        if content.accessories.contains(where: { $0.kind == .delete }) {
            // UIKit's red confirmation button, revealed by the delete circle.
            result += "<button type=\"button\" class=\"delete-confirm\" aria-label=\"Delete \(name)\" hidden>Delete</button>"
        }
        return result + "</span>"
    }

    /// The name of the item in accessible names: the list's, or the cell's label, title or name.
    static func accessibilityName(of content: CellContent) -> String {
        content.accessibilityName ?? content.values["label"] ?? content.values["title"] ?? content.values["name"] ?? content.values["id"] ?? "item"
    }

    private func markup(of accessory: CellAccessory, name: String) -> String {
        let marks = "data-accessory=\"\(accessory.kind.name)\" data-displayed=\"\(accessory.displayed.rawValue)\""
        let attributes = "class=\"accessory\" " + marks
        switch accessory.kind {
        case .delete:
            return "<button type=\"button\" \(attributes) aria-label=\"Delete \(name)\" aria-expanded=\"false\">"
                + "<span class=\"delete-circle\" aria-hidden=\"true\"></span></button>"
        case .multiselect:
            return "<button type=\"button\" \(attributes) role=\"checkbox\" aria-checked=\"false\" aria-label=\"Select \(name)\">"
                + "<span class=\"select-circle\" aria-hidden=\"true\"></span></button>"
        case .reorder:
            // A pointer's handle; the keyboard moves a row with Alt+↑/↓ (reorder.js).
            return "<span class=\"accessory drag-handle\" \(marks) title=\"Drag to reorder\" aria-hidden=\"true\"></span>"
        case .checkmark:
            return "<span \(attributes) role=\"img\" aria-label=\"Checked\">" + Self.checkmarkIcon + "</span>"
        case .disclosureIndicator:
            return "<span \(attributes) aria-hidden=\"true\">" + Self.chevronIcon + "</span>"
        case .outlineDisclosure:
            // The row itself expands and collapses (its `aria-expanded`); the chevron shows which.
            return "<span \(attributes) aria-hidden=\"true\">" + Self.chevronIcon + "</span>"
        case .label(let text):
            return "<span \(attributes)>" + HTMLEscaping.escape(text) + "</span>"
        case .detail:
            // Its click is the page's: a `diffable-web:accessory` event on the cell.
            return "<button type=\"button\" \(attributes) aria-label=\"Details for \(name)\">" + Self.infoIcon + "</button>"
        case .customView(let template, let values, _):
            return "<span \(attributes)>" + (render(template, values) ?? HTMLEscaping.escape(values.values.sorted().joined(separator: " "))) + "</span>"
        }
    }

    private static let checkmarkIcon = "<svg viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\"><path d=\"M3 8.5l3.2 3.2L13 4.8\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/></svg>"
    private static let chevronIcon = "<svg viewBox=\"0 0 10 16\" width=\"8\" height=\"13\" aria-hidden=\"true\"><path d=\"M2 2l6 6-6 6\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/></svg>"
    private static let infoIcon = "<svg viewBox=\"0 0 20 20\" width=\"20\" height=\"20\" aria-hidden=\"true\"><circle cx=\"10\" cy=\"10\" r=\"8.5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/><path d=\"M10 9v5M10 6v.5\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\"/></svg>"
}
