/// A list with view state beyond its items that its page shows and keeps in step (the search
/// field's query, the layout a segmented control picked): the page template's values, and the
/// `"state"` of every `snapshot` and `changeset` event, so that a page's controls show a change
/// a script made. Each value also gives the page `<key>_<value>` as true (`layout_grid`), for a
/// segmented control's `aria-pressed`.
public protocol PageState: WebList {
    /// A flat struct of strings, numbers and booleans, as a cell is.
    associatedtype PageValues: Encodable

    var pageValues: PageValues { get }
}
