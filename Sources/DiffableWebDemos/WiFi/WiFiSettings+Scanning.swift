import DiffableWeb

// The radio's scan: while Wi-Fi is on and someone watches, every `pace.scan` a network or two
// comes into range or leaves it. A session nobody looks at, or with Wi-Fi off, costs no CPU.
extension WiFiSettings {
    /// Networks in range, besides the one joined: a scan keeps their number in this range.
    static let inRange = 3...10

    /// One scan: one or two networks of the pool come into range or leave it (never the one
    /// joined, nor the one being joined), at random from `generator` (tests seed it). Nothing
    /// happens while Wi-Fi is off.
    mutating func scan(_ list: inout Snapshot<String, String>, using generator: inout some RandomNumberGenerator) throws {
        guard enabled else { return }
        // A network found is not lost in the same scan, nor the other way round.
        var changed: Set<String> = []
        for _ in 0..<Int.random(in: 1...2, using: &generator) {
            let leaving = available.filter { $0 != joining && !changed.contains($0) }
            let unseen = WiFiNetwork.pool.map(\.id).filter { $0 != current && !available.contains($0) && !changed.contains($0) }
            let losesOne = available.count >= Self.inRange.upperBound
                || (available.count > Self.inRange.lowerBound && Bool.random(using: &generator))
            if losesOne, let gone = leaving.randomElement(using: &generator) {
                available.removeAll { $0 == gone }
                changed.insert(gone)
            } else if let found = unseen.randomElement(using: &generator) {
                available.append(found)
                changed.insert(found)
            }
        }
        scans += 1
        try rebuild(&list)
    }

    /// While on and watched: a scan every `pace.scan`. After a person's tap: the join, a
    /// moment later (whether or not anyone watches: the tap asked for it).
    public func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
        let pace = pace
        var jobs: [ListJob<Self>] = []
        if enabled, activity.watchers > 0 {
            jobs.append(ListJob("scan") { list in
                while await list.sleep(for: pace.scan) {
                    await list.update { state, items in
                        var generator = SystemRandomNumberGenerator()
                        try state.scan(&items, using: &generator)
                    }
                }
            })
        }
        if let joining {
            jobs.append(ListJob("join \(joining)") { list in
                guard await list.sleep(for: pace.join) else { return }
                await list.update { state, items in try state.finishJoining(joining, &items) }
            })
        }
        return jobs
    }
}
