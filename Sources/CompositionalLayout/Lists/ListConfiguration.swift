/// A list's appearance and its headers and footers (UIKit's `UICollectionLayoutListConfiguration`).
///
/// ```swift
/// var configuration = ListConfiguration(appearance: .insetGrouped)
/// configuration.headerMode = .supplementary
/// let layout = CompositionalLayout { _, environment in
///     LayoutSection.list(using: configuration, layoutEnvironment: environment)
/// }
/// ```
///
/// # Metrics
/// UIKit sizes list rows and headers by self-sizing, so every height below is an `.estimated`
/// dimension (the browser measures the real one). The numbers are iOS 15–17's defaults as far
/// as they are documented or widely measured:
///
/// | appearance | row | header / footer (estimated) | section insets (top, leading, bottom, trailing) |
/// |---|---|---|---|
/// | `.plain` | 44 | 28 / 28 (UITableView's plain header height) | 0, 0, 0, 0 |
/// | `.grouped` | 44 | 38 / 38 | 0, 0, 0, 0, and 35 between sections* |
/// | `.insetGrouped` | 44 | 38 / 38 | 0, 20, 0, 20, and 35 between sections* |
/// | `.sidebar` | 44 | 44 / 44 | 0, 10, 0, 10 |
/// | `.sidebarPlain` | 44 | 44 / 44 | 0, 0, 0, 0 |
///
/// 44 is Apple's minimum tap target and the default row height of table views. 20 is the
/// layout margin an inset-grouped list uses on a compact-width (phone) container; on wide
/// containers UIKit can widen it to the readable width, which is not modelled (20 everywhere).
/// *A grouped list without a header (footer) gets a 17.5 px top (bottom) content inset
/// instead, so that consecutive sections sit 35 px apart like UITableView's grouped style; a
/// header or footer of 38 px (its caption with the system's padding) takes that room when present.
public struct ListConfiguration: Sendable, Hashable {
    /// The look of the list.
    public enum Appearance: Sendable, Hashable {
        /// Edge-to-edge rows, plain section headers.
        case plain
        /// Edge-to-edge rows in visually separated sections.
        case grouped
        /// Rounded sections inset from the container's edges (Settings).
        case insetGrouped
        /// A sidebar: rows inset 10 px from the edges.
        case sidebar
        /// A sidebar without insets.
        case sidebarPlain
    }

    /// Whether and how sections get a header.
    public enum HeaderMode: Sendable, Hashable {
        /// No header.
        case none
        /// A boundary supplementary of kind ``LayoutElementKind/sectionHeader``.
        case supplementary
        /// The first item of each section is the header (an ordinary row as far as frames go).
        case firstItemInSection
    }

    /// Whether sections get a footer.
    public enum FooterMode: Sendable, Hashable {
        /// No footer.
        case none
        /// A boundary supplementary of kind ``LayoutElementKind/sectionFooter``.
        case supplementary
    }

    /// The look of the list.
    public var appearance: Appearance
    /// Whether and how sections get a header.
    public var headerMode: HeaderMode = .none
    /// Whether sections get a footer.
    public var footerMode: FooterMode = .none
    /// Whether rows show separators (no effect on frames; carried for the renderer).
    public var showsSeparators: Bool = true
    /// Pinned (sticky) headers, as a plain UITableView has them. Default: `false`.
    public var pinsHeaders: Bool = false

    /// Creates a configuration.
    public init(appearance: Appearance) {
        self.appearance = appearance
    }
}

/// The numbers behind ``ListConfiguration``'s appearances (see its table).
public enum ListMetrics {
    /// Estimated row height.
    public static let rowHeight = 44.0
    /// Estimated plain header and footer height.
    public static let plainHeaderHeight = 28.0
    /// Estimated grouped / inset-grouped header and footer height.
    public static let groupedHeaderHeight = 38.0
    /// Estimated sidebar header height.
    public static let sidebarHeaderHeight = 44.0
    /// Half the gap between grouped sections, used as a top or bottom inset when there is no header or footer.
    public static let groupedSectionGap = 17.5
    /// Leading and trailing inset of an inset-grouped list.
    public static let insetGroupedMargin = 20.0
    /// Leading and trailing inset of a sidebar.
    public static let sidebarMargin = 10.0
}
