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
    /// - Complexity: O(n + m log m) for n items and m measured sizes, plus the cost of solving one
    ///   template per section (proportional to the size of its group description) and one group
    ///   per measured item. Runs of groups without measured items reuse the template, offset.
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
}
