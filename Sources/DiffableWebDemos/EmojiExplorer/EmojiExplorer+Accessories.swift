import DiffableWeb

/// A starred emoji's star is its row's custom-view accessory (Apple's sample: a
/// `UICellAccessory.customView` with a star image), at the trailing edge and shown always:
/// starring is a `reconfigureItems`, so the row's node stays and only its accessories and content
/// are rendered again. A category's disclosure stays the row's own button (it posts the toggle
/// without JavaScript), as UIKit's `outlineDisclosure` is the header's own control.
extension EmojiExplorer: AccessorizedList {
    public func accessories(for item: String) -> [CellAccessory] {
        guard starred.contains(item) else { return [] }
        return [.customView(template: Self.starTemplate)]
    }

    static let starTemplate = "cells/emoji-explorer-star"
}
