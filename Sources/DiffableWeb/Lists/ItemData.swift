/// A list whose items show a script something else than their cells (`GET …/snapshot`'s
/// `data`): raw numbers where the cell shows them formatted ("height_m": 1148 for "1,148 m").
/// Without it, a script sees an item's cell values, less its own identifier.
public protocol ItemData: WebList {
    /// A flat struct of strings, numbers and booleans, as a cell is.
    associatedtype Data: Encodable

    /// What a script sees of `item`, or `nil` for no such item.
    func data(for item: ItemID) -> Data?
}
