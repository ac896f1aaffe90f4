import CompositionalLayout
import Testing
@testable import DiffableWeb

/// Streams that hold equal windows share one copy (issue 22: the cost of an idle session).
@Suite("Web: one copy of equal held windows")
struct HeldWindowsTests {
    private static func window(rows: Int, width: Double = 1024) -> [String: WireFrame] {
        var held: [String: WireFrame] = [:]
        for row in 0..<rows { held["m\(row)"] = WireFrame(LayoutRect(x: 0, y: Double(row) * 44, width: width, height: 44)) }
        return held
    }

    /// The storage a dictionary refers to (equal for two values that share it).
    private static func storage(_ held: [String: WireFrame]) -> UInt {
        unsafeBitCast(held, to: UInt.self)
    }

    @Test("an equal window built again is handed back as the kept copy; an unequal one is its own")
    func sharesEqualWindows() {
        let windows = HeldWindows()
        let first = Self.window(rows: 86), second = Self.window(rows: 86), other = Self.window(rows: 86, width: 390)
        #expect(Self.storage(first) != Self.storage(second), "built apart: two copies")
        let a = windows.intern(first, signature: WindowUpdate.signature(of: first))
        let b = windows.intern(second, signature: WindowUpdate.signature(of: second))
        #expect(a == second && b == second)
        #expect(Self.storage(a) == Self.storage(b), "one copy for both")
        let c = windows.intern(other, signature: WindowUpdate.signature(of: other))
        #expect(c == other && Self.storage(c) != Self.storage(a))
        #expect(windows.count == 2)
    }

    @Test("a signature shared by unequal windows never hands back the wrong one")
    func collisionsAreChecked() {
        let windows = HeldWindows()
        let one = Self.window(rows: 3), two = Self.window(rows: 4)
        _ = windows.intern(one, signature: 7)
        #expect(windows.intern(two, signature: 7) == two)
        #expect(windows.intern(one, signature: 7) == one)
    }

    @Test("bounded: past its capacity it starts again")
    func bounded() {
        let windows = HeldWindows(capacity: 4)
        for rows in 1...10 {
            let held = Self.window(rows: rows)
            _ = windows.intern(held, signature: WindowUpdate.signature(of: held))
            #expect(windows.count <= 4)
        }
    }
}
