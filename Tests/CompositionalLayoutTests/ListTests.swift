import CompositionalLayout
import Testing

@Suite("List configurations")
struct ListTests {
    static func solve(_ configuration: ListConfiguration, counts: [Int] = [2, 2], container: LayoutContainer = phone) -> LayoutResult {
        CompositionalLayout { _, environment in
            LayoutSection.list(using: configuration, layoutEnvironment: environment)
        }.solve(itemCounts: counts, container: container)
    }

    @Test("plain: edge-to-edge 44-px rows, 28-px headers")
    func plain() {
        var configuration = ListConfiguration(appearance: .plain)
        configuration.headerMode = .supplementary
        let result = Self.solve(configuration)
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 0, item: 0))?.frame, rect(0, 0, 390, 28))
        expectItem(result, 0, 0, rect(0, 28, 390, 44))
        expectItem(result, 1, 0, rect(0, 144, 390, 44))  // 28 + 88 + 28
    }

    @Test("grouped without headers: sections 35 px apart, 17.5 px at the top and bottom")
    func grouped() {
        let result = Self.solve(ListConfiguration(appearance: .grouped))
        expectItem(result, 0, 0, rect(0, 17.5, 390, 44))
        expectItem(result, 1, 0, rect(0, 140.5, 390, 44))  // 17.5 + 88 + 17.5 + 17.5
        #expect(result.contentSize.height == 246)           // 2 · (35 + 88)
    }

    @Test("inset-grouped: rows inset 20 px from both edges", arguments: [phone, tablet])
    func insetGrouped(container: LayoutContainer) {
        let result = Self.solve(ListConfiguration(appearance: .insetGrouped), container: container)
        expectItem(result, 0, 0, rect(20, 17.5, container.width - 40, 44))
    }

    @Test("footers sit below the rows")
    func footers() {
        var configuration = ListConfiguration(appearance: .insetGrouped)
        configuration.headerMode = .supplementary
        configuration.footerMode = .supplementary
        let result = Self.solve(configuration, counts: [1])
        // Header 0–38, row 38–82, footer 82–120 (no bottom gap when there is a footer).
        expectFrame(result.supplementary(ofKind: "footer", at: ItemPath(section: 0, item: 0))?.frame, rect(20, 82, 350, 38))
        #expect(result.contentSize.height == 120)
    }

    @Test("sidebar: rows inset 10 px; firstItemInSection makes no supplementary")
    func sidebar() {
        var configuration = ListConfiguration(appearance: .sidebar)
        configuration.headerMode = .firstItemInSection
        let result = Self.solve(configuration, counts: [3])
        #expect(result.supplementaries.isEmpty)
        expectItem(result, 0, 0, rect(10, 0, 370, 44))
        expectItem(result, 0, 2, rect(10, 88, 370, 44))
    }

    @Test("list rows self-size: measured heights replace the 44-px estimate")
    func listSelfSizing() {
        let layout = CompositionalLayout { _, environment in
            LayoutSection.list(using: ListConfiguration(appearance: .plain), layoutEnvironment: environment)
        }
        let result = layout.solve(itemCounts: [3], container: phone, measuredSizes: [ItemPath(section: 0, item: 0): LayoutPixelSize(width: 390, height: 80)])
        expectItem(result, 0, 0, rect(0, 0, 390, 80))
        expectItem(result, 0, 1, rect(0, 80, 390, 44))
    }

    @Test("pinned list headers are reported as pinned")
    func pinnedListHeaders() {
        var configuration = ListConfiguration(appearance: .plain)
        configuration.headerMode = .supplementary
        configuration.pinsHeaders = true
        let result = Self.solve(configuration)
        #expect(result.supplementaries.count == 2)
        #expect(result.supplementaries.allSatisfy { $0.isPinned })
    }
}

@Suite("Self-sizing headers and footers")
struct SupplementarySelfSizingTests {
    @Test("a measured header height replaces its estimate and pushes the rows down")
    func measuredHeader() {
        var configuration = ListConfiguration(appearance: .insetGrouped)
        configuration.headerMode = .supplementary
        let frozen = configuration
        let layout = CompositionalLayout { _, environment in LayoutSection.list(using: frozen, layoutEnvironment: environment) }
        let result = layout.solve(
            itemCounts: [1, 1], container: phone,
            measuredSupplementarySizes: [SupplementaryPath(kind: "header", section: 1): LayoutPixelSize(width: 0, height: 60)])
        // Section 0: header 38 (estimate), row 38–82, bottom gap 17.5 → 99.5.
        // Section 1: header 60 (measured; its width is not estimated, so stays 350), row at 159.5.
        expectFrame(result.supplementary(ofKind: "header", at: ItemPath(section: 1, item: 0))?.frame, rect(20, 99.5, 350, 60))
        expectItem(result, 1, 0, rect(20, 159.5, 350, 44))
    }
}
