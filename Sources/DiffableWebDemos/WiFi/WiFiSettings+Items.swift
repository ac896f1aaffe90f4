import DiffableWeb

// The items a state shows, and the changes that rebuild them: as the sample's `updateUI()`, a
// whole new snapshot every time, whose diff with the old one is what the page animates.
extension WiFiSettings {
    /// The networks in range, by name as people read it (letters before case, then exactly).
    var sortedAvailable: [String] {
        available.sorted { Self.sortKey($0) < Self.sortKey($1) }
    }

    static func sortKey(_ id: String) -> (String, String) {
        let name = WiFiNetwork.byID[id]?.name ?? id
        return (name.lowercased(), name)
    }

    /// The switch, the network joined while on, and the networks in range while on.
    func items() throws -> Snapshot<String, String> {
        var list = Snapshot<String, String>()
        try list.appendSections([Self.configSection])
        try list.appendItems(enabled && current != nil ? [Self.switchItem, Self.currentItem] : [Self.switchItem], toSection: Self.configSection)
        if enabled {
            try list.appendSections([Self.networksSection])
            try list.appendItems(sortedAvailable, toSection: Self.networksSection)
        }
        return list
    }

    /// The last row of each section: it draws no separator under it (the card's edge is there).
    static func lastRows(of list: Snapshot<String, String>) -> Set<String> {
        Set(list.sectionIdentifiers.compactMap { try? list.itemIdentifiers(inSection: $0).last })
    }

    /// `list` becomes the items of the state, with `changed` reconfigured (their content shows
    /// the state) and every surviving row that became, or stopped being, its section's last
    /// (its separator comes or goes).
    func rebuild(_ list: inout Snapshot<String, String>, reconfiguring changed: [String] = []) throws {
        var rebuilt = try items()
        let edges = Self.lastRows(of: list).symmetricDifference(Self.lastRows(of: rebuilt))
        let reconfigured = Set(changed).union(edges).filter { list.contains(item: $0) && rebuilt.contains(item: $0) }
        if !reconfigured.isEmpty { try rebuilt.reconfigureItems(reconfigured.sorted()) }
        list = rebuilt
    }

    /// Joins `network`: the one joined before goes back into range, `network` leaves it, and
    /// the joined network's row shows it (reconfigured, or inserted when there was none).
    mutating func join(_ network: String, _ list: inout Snapshot<String, String>) throws {
        let hadCurrent = current != nil
        if let previous = current { available.append(previous) }
        available.removeAll { $0 == network }
        current = network
        joining = nil
        joins += 1
        try rebuild(&list, reconfiguring: hadCurrent ? [Self.currentItem] : [])
    }

    /// The end of a person's tap: joins the network tapped, unless Wi-Fi went off, another
    /// tap came, or a scan lost it meanwhile.
    mutating func finishJoining(_ network: String, _ list: inout Snapshot<String, String>) throws {
        guard joining == network else { return }
        guard enabled, available.contains(network) else {
            joining = nil
            return
        }
        try join(network, &list)
    }
}
