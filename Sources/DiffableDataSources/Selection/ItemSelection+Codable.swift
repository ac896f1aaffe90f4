#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OrderedCollections

/// A selection is stored as its settings, its selected items in order, and the anchor and
/// extent of range selection. Decoding rejects what no sequence of operations could have made
/// (an item twice, more items than the settings allow); whether the items are still in the list
/// is for ``ItemSelection/reconcile(with:)-(Snapshot<SectionID,ItemIdentifier>)`` to settle.
extension ItemSelection: Codable where ItemIdentifier: Codable {
    enum CodingKeys: String, CodingKey {
        case settings, selectedItems, anchor, extent
    }

    /// Decodes a selection.
    /// - Throws: `DecodingError.dataCorrupted` for an item selected twice, or for more selected
    ///   items than the settings allow (any while selection is not allowed, two in single selection).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let settings = try container.decode(SelectionSettings.self, forKey: .settings)
        let items = try container.decode([ItemIdentifier].self, forKey: .selectedItems)
        let selected = OrderedSet(items)
        guard selected.count == items.count else {
            throw DecodingError.dataCorruptedError(forKey: .selectedItems, in: container, debugDescription: "An item is selected twice")
        }
        guard selected.isEmpty || settings.allowsSelectionNow, selected.count <= 1 || settings.allowsMultipleSelectionNow else {
            throw DecodingError.dataCorruptedError(forKey: .selectedItems, in: container,
                                                   debugDescription: "\(selected.count) items selected where the settings allow fewer")
        }
        self.init(settings: settings)
        self.selected = selected
        anchor = try container.decodeIfPresent(ItemIdentifier.self, forKey: .anchor)
        extent = try container.decodeIfPresent(ItemIdentifier.self, forKey: .extent)
    }

    /// Encodes the settings, the selected items in order, and the anchor and extent when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settings, forKey: .settings)
        try container.encode(selected.elements, forKey: .selectedItems)
        try container.encodeIfPresent(anchor, forKey: .anchor)
        try container.encodeIfPresent(extent, forKey: .extent)
    }
}
