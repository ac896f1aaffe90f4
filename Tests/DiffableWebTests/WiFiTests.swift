import DiffableDataSources
import Foundation
import SeededRandom
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Apple's Settings: Wi-Fi on its own: the switch's changesets (exactly one item and one
/// section, the switch's row reconfigured, never reloaded), the networks sorted by name after
/// any scan, and a tap that joins a network with the previous one back at its sorted place.
@Suite("Wi-Fi settings: the switch deletes or inserts one row and one section; networks stay sorted; a tap joins")
struct WiFiTests {
    static let pace = WiFiSettings.Pace(scan: .milliseconds(1), join: .zero)

    static func networks(_ list: Snapshot<String, String>) -> [String] {
        (try? list.itemIdentifiers(inSection: WiFiSettings.networksSection)) ?? []
    }

    static func names(_ list: Snapshot<String, String>) -> [String] {
        networks(list).map { WiFiNetwork.byID[$0]?.name ?? $0 }
    }

    static func isSortedByName(_ list: Snapshot<String, String>) -> Bool {
        let keys = networks(list).map(WiFiSettings.sortKey)
        return zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }
    }

    @Test("a new session: the switch on, breeno-net joined, six networks in range, sorted by name")
    func initial() throws {
        let state = WiFiSettings(pace: Self.pace)
        let list = try state.initialSnapshot()
        #expect(list.sectionIdentifiers == ["config", "networks"])
        #expect(try list.itemIdentifiers(inSection: "config") == ["wifi-enabled", "current-network"])
        #expect(Self.names(list) == ["AirSpace1", "Café Lumière", "Home Sweet Home", "NETGEAR-5G", "The LAN Before Time", "Vodafone-A83F"])
        #expect(state.cell(for: "wifi-enabled")?.on == true && state.cell(for: "wifi-enabled")?.template == "cells/wifi-switch")
        #expect(state.cell(for: "current-network")?.name == "breeno-net" && state.cell(for: "current-network")?.current == true)
        #expect(state.cell(for: "net-cafe-lumiere")?.secured == nil && state.cell(for: "net-airspace1")?.secured == true)
        #expect(state.cell(for: "net-vodafone-a83f")?.last == true && state.cell(for: "net-airspace1")?.last == nil)
        #expect(state.cell(for: "net-nowhere") == nil)
        #expect(state.supplementary(.header, in: "networks", of: list)?.title == "Choose a network…")
        #expect(state.supplementary(.header, in: "config", of: list) == nil)
        #expect(state.status(of: list) == "Connected to breeno-net" && state.details(of: list) == "6 other networks in range · 0 scans · 0 joined")
    }

    @Test("every network of the pool has a unique, ASCII identifier a script can type")
    func identifiers() {
        #expect(Set(WiFiNetwork.pool.map(\.id)).count == WiFiNetwork.pool.count)
        #expect(WiFiNetwork.pool.allSatisfy { $0.id.hasPrefix("net-") && $0.id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") } })
        #expect(WiFiNetwork.byID["net-fritz-box-7590-qr"]?.name == "FRITZ!Box 7590 QR")
    }

    @Test("off: exactly one section deleted (the networks, its rows with it) and one item outside it (the joined network's row); the switch's row reconfigured, nothing reloaded")
    func off() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        let before = list
        try state.perform(.setWifi(enabled: false), on: &list)
        let changes = Changeset(from: before, to: list)
        #expect(changes.sectionDeletions == [.init(id: "networks", index: 1)])
        #expect(changes.itemDeletions.filter { $0.indexPath.section == 0 } == [.init(id: "current-network", indexPath: IndexPath(item: 1, section: 0))])
        // The core's changeset names every item that leaves, those of a deleted section too (so
        // that each of their cells fades): exactly the networks' rows, in their old order.
        #expect(changes.itemDeletions.filter { $0.indexPath.section == 1 }.map(\.id) == Self.networks(before))
        #expect(changes.itemDeletions.filter { $0.indexPath.section == 1 }.map(\.indexPath.item) == Array(Self.networks(before).indices))
        #expect(changes.itemReconfigures.map(\.id) == ["wifi-enabled"])
        #expect(changes.itemReloads.isEmpty && changes.sectionReloads.isEmpty)
        #expect(changes.itemInsertions.isEmpty && changes.itemMoves.isEmpty && changes.sectionInsertions.isEmpty && changes.sectionMoves.isEmpty)
        #expect(list.sectionIdentifiers == ["config"] && list.itemIdentifiers == ["wifi-enabled"])
        #expect(try before.applying(changes) == list)
        #expect(state.cell(for: "wifi-enabled")?.on == nil && state.cell(for: "wifi-enabled")?.last == true)
        #expect(state.status(of: list) == "Wi-Fi is off")
    }

    @Test("on again: the reverse, one section inserted (its rows with it) and one item outside it, the switch's row reconfigured, the same networks back")
    func onAgain() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        let original = list
        try state.perform(.setWifi(enabled: false), on: &list)
        let off = list
        try state.perform(.setWifi(enabled: true), on: &list)
        let changes = Changeset(from: off, to: list)
        #expect(changes.itemInsertions.filter { $0.indexPath.section == 0 } == [.init(id: "current-network", indexPath: IndexPath(item: 1, section: 0))])
        #expect(changes.itemInsertions.filter { $0.indexPath.section == 1 }.map(\.id) == Self.networks(list), "the new section's rows")
        #expect(changes.sectionInsertions == [.init(id: "networks", index: 1)])
        #expect(changes.itemReconfigures.map(\.id) == ["wifi-enabled"])
        #expect(changes.itemReloads.isEmpty && changes.sectionReloads.isEmpty)
        #expect(changes.itemDeletions.isEmpty && changes.itemMoves.isEmpty && changes.sectionDeletions.isEmpty && changes.sectionMoves.isEmpty)
        #expect(list.itemIdentifiers == original.itemIdentifiers && list.sectionIdentifiers == original.sectionIdentifiers)
        #expect(state.cell(for: "wifi-enabled")?.on == true && state.cell(for: "wifi-enabled")?.last == nil)
    }

    @Test("with no network joined the switch's row is the section's last either way: it is reconfigured for its switch, and the networks section alone goes and comes")
    func notJoined() throws {
        var state = WiFiSettings(pace: Self.pace)
        state.current = nil
        var list = try state.initialSnapshot()
        #expect(list.itemIdentifiers.first == "wifi-enabled" && !list.itemIdentifiers.contains("current-network"))
        for on in [false, true] {
            let before = list
            try state.perform(.setWifi(enabled: on), on: &list)
            let changes = Changeset(from: before, to: list)
            #expect(changes.itemReconfigures.map(\.id) == ["wifi-enabled"] && changes.itemReloads.isEmpty)
            #expect(on ? changes.sectionInsertions.map(\.id) == ["networks"] : changes.sectionDeletions.map(\.id) == ["networks"])
            #expect((changes.itemDeletions + changes.itemInsertions).allSatisfy { $0.indexPath.section == 1 }, "nothing outside the networks")
            #expect(state.cell(for: "wifi-enabled")?.on == (on ? true : nil) && state.cell(for: "wifi-enabled")?.last == true)
        }
        #expect(state.status(of: list) == "Wi-Fi is on, not connected")
    }

    @Test("setting the switch to where it is changes nothing (no event)")
    func sameSetting() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        let before = list
        try state.perform(.setWifi(enabled: true), on: &list)
        #expect(Changeset(from: before, to: list).isEmpty && list.reconfiguredItemIdentifiers.isEmpty)
    }

    @Test("scans keep the networks sorted by name, in range (3…10), never the joined one; each scan's changeset is inserts and deletes of networks only",
          arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func scansStaySorted(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        var seen = Set(Self.networks(list))
        for scan in 1...40 {
            let before = list
            try state.scan(&list, using: &generator)
            let changes = Changeset(from: before, to: list)
            #expect(Self.isSortedByName(list), "scan \(scan): \(Self.names(list))")
            #expect(WiFiSettings.inRange.contains(Self.networks(list).count))
            #expect(!Self.networks(list).contains(WiFiNetwork.pool[0].id), "the joined network is not in the list of others")
            #expect(changes.itemMoves.isEmpty && changes.itemReloads.isEmpty && changes.sectionDeletions.isEmpty && changes.sectionInsertions.isEmpty)
            #expect((changes.itemDeletions + changes.itemInsertions).allSatisfy { $0.id.hasPrefix("net-") })
            #expect(!changes.itemDeletions.isEmpty || !changes.itemInsertions.isEmpty, "scan \(scan) changed nothing")
            // Only the rows that became or stopped being the last are reconfigured (their separator).
            #expect(changes.itemReconfigures.allSatisfy { $0.id == Self.networks(before).last || $0.id == Self.networks(list).last })
            #expect(try before.applying(changes) == list)
            #expect(state.scans == scan)
            seen.formUnion(Self.networks(list))
        }
        #expect(seen.count > 8, "40 scans bring networks beyond the first six: \(seen.count)")
    }

    @Test("the same seed scans the same way")
    func seeded() throws {
        func run(_ seed: UInt64) throws -> [String] {
            var generator = SeededRandom(seed: seed)
            var state = WiFiSettings(pace: Self.pace)
            var list = try state.initialSnapshot()
            for _ in 1...10 { try state.scan(&list, using: &generator) }
            return list.itemIdentifiers
        }
        #expect(try run(7) == run(7))
        #expect(try run(7) != run(8))
    }

    @Test("no scan while off: nothing changes, and no scanning job is declared")
    func noScanWhileOff() throws {
        var generator = SeededRandom(seed: 1)
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        try state.perform(.setWifi(enabled: false), on: &list)
        let off = list
        try state.scan(&list, using: &generator)
        #expect(list == off && state.scans == 0)
        let watched = ListActivity<String>(watchers: 1, visibleItems: [], lastVisiblePosition: 0, itemCount: 1)
        #expect(state.jobs(watched).isEmpty)
    }

    @Test("the scanning job: declared while on and watched, not while nobody watches")
    func scanningJob() {
        let state = WiFiSettings(pace: Self.pace)
        let watched = ListActivity<String>(watchers: 2, visibleItems: [], lastVisiblePosition: 0, itemCount: 8)
        let unwatched = ListActivity<String>(watchers: 0, visibleItems: [], lastVisiblePosition: nil, itemCount: 8)
        #expect(state.jobs(watched).map(\.id) == ["scan"])
        #expect(state.jobs(unwatched).isEmpty)
    }

    @Test("a tap on a network: only networks in range are selectable; didSelect starts joining (a job, watched or not)")
    func tapStartsJoining() {
        var state = WiFiSettings(pace: Self.pace)
        #expect(state.shouldSelect("net-netgear-5g"))
        #expect(!state.shouldSelect("wifi-enabled") && !state.shouldSelect("current-network") && !state.shouldSelect("net-linksys00042"))
        state.didSelect("net-netgear-5g")
        #expect(state.joining == "net-netgear-5g")
        let unwatched = ListActivity<String>(watchers: 0, visibleItems: [], lastVisiblePosition: nil, itemCount: 8)
        #expect(state.jobs(unwatched).map(\.id) == ["join net-netgear-5g"])
        #expect(state.status(of: Snapshot()) == "Joining NETGEAR-5G…")
    }

    @Test("joining: the tapped network becomes the joined row (reconfigured), the previous one returns at its sorted place",
          arguments: ["net-airspace1", "net-netgear-5g", "net-vodafone-a83f"])
    func join(_ network: String) throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        let before = list
        state.didSelect(network)
        try state.finishJoining(network, &list)
        let changes = Changeset(from: before, to: list)
        #expect(state.current == network && state.joining == nil && state.joins == 1)
        #expect(state.cell(for: "current-network")?.name == WiFiNetwork.byID[network]?.name)
        #expect(changes.itemDeletions.map(\.id) == [network])
        #expect(changes.itemInsertions.map(\.id) == ["net-breeno-net"])
        #expect(changes.itemReconfigures.map(\.id).contains("current-network"))
        #expect(changes.itemReloads.isEmpty && changes.sectionDeletions.isEmpty && changes.sectionInsertions.isEmpty)
        #expect(Self.isSortedByName(list) && Self.networks(list).contains("net-breeno-net") && !Self.networks(list).contains(network))
        #expect(try before.applying(changes) == list)
    }

    @Test("a join that lost its reason does nothing: Wi-Fi went off, another tap came, or a scan took the network away")
    func staleJoin() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        state.didSelect("net-airspace1")
        state.didSelect("net-netgear-5g")
        let before = list
        try state.finishJoining("net-airspace1", &list)
        #expect(list == before && state.joining == "net-netgear-5g" && state.current == "net-breeno-net")
        try state.perform(.setWifi(enabled: false), on: &list)
        #expect(state.joining == nil)
        let off = list
        try state.finishJoining("net-netgear-5g", &list)
        #expect(list == off && state.current == "net-breeno-net" && state.joins == 0)
    }

    @Test("a script's join is at once; a network out of range or Wi-Fi off is refused, changing nothing")
    func scriptJoin() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        try state.perform(.join(network: "net-the-lan-before-time"), on: &list)
        #expect(state.current == "net-the-lan-before-time" && Self.isSortedByName(list))
        #expect(throws: ActionError.self) { try state.perform(.join(network: "net-linksys00042"), on: &list) }
        try state.perform(.setWifi(enabled: false), on: &list)
        let off = (state.available, list)
        #expect(throws: ActionError.self) { try state.perform(.join(network: "net-airspace1"), on: &list) }
        #expect(state.available == off.0 && list == off.1)
    }

    @Test("the state round-trips through its saved form")
    func saved() throws {
        var state = WiFiSettings(pace: Self.pace)
        var list = try state.initialSnapshot()
        try state.perform(.join(network: "net-airspace1"), on: &list)
        try state.perform(.setWifi(enabled: false), on: &list)
        let restored = try JSONDecoder().decode(WiFiSettings.self, from: JSONEncoder().encode(state))
        #expect(restored.enabled == false && restored.current == "net-airspace1" && restored.available == state.available && restored.joins == 1)
    }
}
