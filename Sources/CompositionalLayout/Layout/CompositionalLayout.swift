/// A layout described as sections of groups of items, solved into frames
/// (UIKit's `UICollectionViewCompositionalLayout`).
///
/// A layout is a description; ``solve(itemCounts:container:measuredSizes:measuredSupplementarySizes:)`` turns it into a
/// ``LayoutResult`` for a number of items per section and a container (the browser viewport).
/// The section provider is called once per section for each solve, so a layout can adapt to the
/// container (two columns on a phone, three on a desktop).
///
/// ```swift
/// let layout = CompositionalLayout { sectionIndex, environment in
///     let columns = environment.container.effectiveContentSize.width > 800 ? 3 : 2
///     let item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .fractionalHeight(1.0)))
///     var group = LayoutGroup.horizontal(
///         layoutSize: LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .absolute(32)),
///         subitem: item, count: columns)
///     group.interItemSpacing = .fixed(10)
///     var section = LayoutSection(group: group)
///     section.interGroupSpacing = 10
///     section.contentInsets = .uniform(10)
///     return section
/// }
/// let result = layout.solve(itemCounts: [100], container: LayoutContainer(width: 390, height: 844))
/// result.itemFrame(at: ItemPath(section: 0, item: 1))   // x 200, y 10, 180 × 32
/// ```
public struct CompositionalLayout: Sendable {
    /// Builds the section at an index for an environment.
    public typealias SectionProvider = @Sendable (_ sectionIndex: Int, _ environment: LayoutEnvironment) -> LayoutSection

    /// The layout-wide settings.
    public var configuration: CompositionalLayoutConfiguration
    /// Builds each section.
    public let sectionProvider: SectionProvider

    /// A layout whose every section is `section`.
    public init(section: LayoutSection, configuration: CompositionalLayoutConfiguration = .init()) {
        self.configuration = configuration
        self.sectionProvider = { _, _ in section }
    }

    /// A layout whose sections come from a closure.
    public init(configuration: CompositionalLayoutConfiguration = .init(), sectionProvider: @escaping SectionProvider) {
        self.configuration = configuration
        self.sectionProvider = sectionProvider
    }

    /// Computes the frame of every item, supplementary and decoration, and the content size.
    ///
    /// - Parameters:
    ///   - itemCounts: the number of items in each section (one entry per section).
    ///   - container: the viewport, in CSS pixels.
    ///   - measuredSizes: the measured sizes of self-sizing items; each replaces the estimate on
    ///     the axes where the item's dimension is `.estimated` (other axes keep their layout size).
    ///   - measuredSupplementarySizes: the same for headers and footers with estimated dimensions.
    /// - Complexity: O(s + b + d + m log m) for s sections, b boundary supplementaries, d
    ///   decorations and m measured sizes, plus the cost of solving one template per section
    ///   (proportional to the size of its group description) — independent of the number of
    ///   items wherever a section's groups are all alike: such a section keeps its template and
    ///   its frames are computed when asked for. A vertical section holding measured items costs
    ///   O(g) for its g groups (a sum tree of the measured groups' length deltas, built densely)
    ///   and one group solve per group holding a measured item; an orthogonal one O(n) for its n
    ///   items (stamped). To apply a screen of new measurements to a result already solved, use
    ///   ``LayoutResult/applyMeasuredSizes(_:supplementaries:)``: O(log g) per measured item.
    ///   Frames are bit-identical either way.
    public func solve(
        itemCounts: [Int],
        container: LayoutContainer,
        measuredSizes: [ItemPath: LayoutPixelSize] = [:],
        measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize] = [:]
    ) -> LayoutResult {
        var solver = LayoutSolver(
            layout: self, container: container, measuredSizes: measuredSizes,
            measuredSupplementarySizes: measuredSupplementarySizes)
        return solver.solve(itemCounts: itemCounts)
    }

    /// The same as ``solve(itemCounts:container:measuredSizes:measuredSupplementarySizes:)``,
    /// with the measured item sizes by section index, then item index: a caller that finds them
    /// section by section (a list walking its snapshot) hands them over without each being
    /// hashed twice.
    public func solve(
        itemCounts: [Int],
        container: LayoutContainer,
        measuredItemsBySection: [Int: [Int: LayoutPixelSize]],
        measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize] = [:]
    ) -> LayoutResult {
        var solver = LayoutSolver(
            layout: self, container: container, measuredBySection: measuredItemsBySection,
            measuredSupplementarySizes: measuredSupplementarySizes)
        return solver.solve(itemCounts: itemCounts)
    }

    /// The same as ``solve(itemCounts:container:measuredSizes:measuredSupplementarySizes:)``, but
    /// every section stamps each item's frame into the result (O(n) for n items), as the solver
    /// did before sections kept their templates. The reference the tests compare template results
    /// with, and the "before" of the benchmark; not for production use.
    ///
    /// ```swift
    /// @_spi(Reference) import CompositionalLayout
    /// #expect(layout.solveStamped(itemCounts: [100], container: phone) == layout.solve(itemCounts: [100], container: phone))
    /// ```
    @_spi(Reference)
    public func solveStamped(
        itemCounts: [Int],
        container: LayoutContainer,
        measuredSizes: [ItemPath: LayoutPixelSize] = [:],
        measuredSupplementarySizes: [SupplementaryPath: LayoutPixelSize] = [:]
    ) -> LayoutResult {
        var solver = LayoutSolver(
            layout: self, container: container, measuredSizes: measuredSizes,
            measuredSupplementarySizes: measuredSupplementarySizes, storage: .stamped)
        return solver.solve(itemCounts: itemCounts)
    }
}
