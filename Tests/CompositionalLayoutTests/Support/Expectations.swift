import CompositionalLayout
import Testing

/// UIKit frames are compared to within half a pixel (the tolerance).
let tolerance = 0.5

/// Whether two frames agree to within `tolerance` on every coordinate.
func isClose(_ a: LayoutRect?, _ b: LayoutRect, within t: Double = tolerance) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= t && abs(a.y - b.y) <= t && abs(a.width - b.width) <= t && abs(a.height - b.height) <= t
}

/// Expects the item at `(section, item)` to have `frame`, within half a pixel.
func expectItem(
    _ result: LayoutResult, _ section: Int, _ item: Int, _ frame: LayoutRect,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = result.itemFrame(at: ItemPath(section: section, item: item))
    #expect(isClose(actual, frame), "item [\(section), \(item)]: \(String(describing: actual)) ≠ \(frame)", sourceLocation: sourceLocation)
}

/// Expects a frame, within half a pixel.
func expectFrame(_ actual: LayoutRect?, _ frame: LayoutRect, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(isClose(actual, frame), "\(what): \(String(describing: actual)) ≠ \(frame)", sourceLocation: sourceLocation)
}

/// Shorthand for a rectangle.
func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> LayoutRect {
    LayoutRect(x: x, y: y, width: w, height: h)
}

let phone = LayoutContainer(width: 390, height: 844)
let tablet = LayoutContainer(width: 1024, height: 768)

/// A fraction-sized item (the seeds' favourite).
func fractionalItem(_ w: Double = 1, _ h: Double = 1) -> LayoutItem {
    LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(w), heightDimension: .fractionalHeight(h)))
}

func size(_ w: LayoutDimension, _ h: LayoutDimension) -> LayoutSize {
    LayoutSize(widthDimension: w, heightDimension: h)
}
