import SeededRandom
import Testing
@testable import DiffableWeb

@Suite("IdleOrder: the session store's least-recently-seen index")
struct IdleOrderTests {
    @Test("random inserts, touches and removals agree with a plain array model", arguments: 0..<40)
    func agreesWithModel(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        var order = IdleOrder<Int, String>()
        var model: [(key: Int, seen: Int)] = []  // oldest first
        let start = ContinuousClock.now
        for step in 1...300 {
            let key = Int.random(in: 0..<25, using: &random)
            let now = start + .milliseconds(step)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                order.insertNewest(key, "v\(key)", at: now)
                model.removeAll { $0.key == key }
                model.append((key, step))
            case 1:
                let touched = order.touch(key, at: now)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(touched == "v\(key)")
                    model.remove(at: index)
                    model.append((key, step))
                } else {
                    #expect(touched == nil)
                }
            case 2:
                let removed = order.remove(key)
                #expect((removed != nil) == model.contains { $0.key == key })
                model.removeAll { $0.key == key }
            default:
                #expect(order.oldest(3) == model.prefix(3).map { "v\($0.key)" })
            }
            #expect(order.count == model.count)
            #expect(order.values == model.map { "v\($0.key)" })
            #expect(order.oldestEntry?.seen == model.first.map { start + .milliseconds($0.seen) })
        }
    }
}
