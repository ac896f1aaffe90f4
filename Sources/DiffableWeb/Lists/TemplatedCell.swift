/// A cell (or a header, a footer) that chooses its template: a list whose items are not all
/// alike (a card and a promotion) makes its `Cell` one struct whose `template` says which.
/// Its other stored properties are the template's values, as for any cell.
///
/// ```swift
/// struct Cell: TemplatedCell {
///     let template: String      // "cells/card" or "cells/promo"
///     let title: String
/// }
/// ```
public protocol TemplatedCell: Encodable {
    /// The template, under a templates directory (`cells/card`); list them all in
    /// ``WebList/cellTemplates``.
    var template: String { get }
}
