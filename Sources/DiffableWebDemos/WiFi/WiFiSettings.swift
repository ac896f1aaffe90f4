import CompositionalLayout
import DiffableWeb

/// Apple's "Settings: Wi-Fi" (Implementing Modern Collection Views › Diffable Data Source): an
/// inset-grouped list with the Wi-Fi switch and the network joined, then the networks in range,
/// sorted by name, which a scan every 2 s adds to and takes from.
///
/// The items are a function of the state, rebuilt whole after every change as the sample's
/// `updateUI()` builds a new snapshot; the diff says what changed:
/// - Turning Wi-Fi off deletes one section (the networks, whose rows go with it: the changeset
///   names them too, so that each cell fades) and one item outside it (the joined network's
///   row), and reconfigures the switch's row: its element stays, its content shows the switch
///   off. Nothing is reloaded. Turning it on is the reverse.
/// - A scan, while Wi-Fi is on and someone watches (``jobs(_:)``), inserts or deletes a few rows
///   of the networks section, each at its sorted place.
/// - A person's tap on a network joins it (``didSelect(_:)``): the network's row leaves the
///   networks, the previous one comes back at its sorted place, and the joined network's row is
///   reconfigured to name the new one.
///
/// A script's snapshot operations last until the next change, which builds the items from the
/// state again (the state is what the list is: a switch, a network joined, networks in range).
///
/// Selection follows the sample, whose `didSelectRowAt` deselects the row at once: the row a
/// person tapped stays selected only while its network is being joined (the page shows it
/// joining), then leaves the networks section, and the framework drops it from the selection:
/// nothing stays selected. Only the networks in range are selectable (``shouldSelect(_:)``).
public struct WiFiSettings: BuiltInList, SelectableList, BackgroundWork, SupplementaryViews {
    public static let name = "wifi"
    public static let title = "Wi-Fi settings"
    public static let summary = "A Settings screen: a Wi-Fi switch, the network joined, and the networks in range, sorted, as a scan finds them."
    public static let pageTemplate = "demos/wifi"
    public static let cellTemplate = "cells/wifi-network"
    public static let cellTemplates = ["cells/wifi-switch", "cells/wifi-network", "cells/wifi-header"]

    /// The sections: the switch and the network joined; the networks in range.
    public static let configSection = "config"
    public static let networksSection = "networks"
    /// The switch's row and the joined network's row.
    public static let switchItem = "wifi-enabled"
    public static let currentItem = "current-network"

    /// How fast the radio works (shared by every session; tests go faster).
    public struct Pace: Sendable {
        /// Between two scans.
        let scan: Duration
        /// From a tap on a network to its being joined.
        let join: Duration

        public init(scan: Duration = .seconds(2), join: Duration = .milliseconds(600)) {
            self.scan = scan
            self.join = join
        }
    }

    @Shared var pace: Pace
    /// The switch.
    var enabled = true
    /// The network joined (its identifier), shown below the switch while Wi-Fi is on.
    var current: String? = WiFiNetwork.pool[0].id
    /// The other networks in range (identifiers, in the order they were found).
    var available = ["net-airspace1", "net-cafe-lumiere", "net-home-sweet-home", "net-netgear-5g", "net-the-lan-before-time", "net-vodafone-a83f"]
    /// The network a person tapped, being joined.
    var joining: String?
    /// Scans made, and networks joined, for scripts.
    var scans = 0
    var joins = 0

    public enum Action: WebListAction {
        case setWifi(enabled: Bool)
        case scan
        case join(network: String)

        public static let descriptions = [
            "setWifi": "Turn Wi-Fi on or off: off deletes the joined network's row and the networks section, on brings them back; the switch's row is reconfigured (kept)",
            "setWifi.enabled": "On or off",
            "scan": "Scan now: a network or two comes into range or leaves it (Wi-Fi on only)",
            "join": "Join a network in range at once (a person's tap on one joins it after a moment)",
            "join.network": "The network's item identifier (net-…)",
        ]
    }

    /// A row: the switch (`cells/wifi-switch`) or a network (`cells/wifi-network`, the joined
    /// one with a check mark).
    public struct Cell: TemplatedCell {
        public let template: String
        // A template reads a present key as true: each flag is `true` or left out (`nil`).
        /// The switch: on, or left out for off.
        let on: Bool?
        let name: String?
        let secured: Bool?
        let signal: Int?
        let signalDescription: String?
        let current: Bool?
        /// Its section's last row: no separator under it.
        let last: Bool?
    }

    /// The networks section's header.
    public struct Header: TemplatedCell {
        public let template = "cells/wifi-header"
        let title: String
    }

    public init() {}

    /// A list working at `pace` (tests).
    public init(pace: Pace) {
        _pace = Shared(wrappedValue: pace)
    }

    /// The descriptor of a radio at `pace` (the built-in one: a scan every 2 s).
    public static func descriptor(pace: Pace = Pace()) throws -> DemoDescriptor {
        try descriptor(sharing: [pace])
    }

    public func initialSnapshot() throws -> Snapshot<String, String> { try items() }

    /// Settings' look: inset grouped, the networks under their header.
    public func layout() -> CompositionalLayout { ListAppearance.insetGrouped.layout }

    public func cell(for item: String) -> Cell? {
        if item == Self.switchItem {
            return Cell(template: "cells/wifi-switch", on: enabled ? true : nil, name: nil, secured: nil, signal: nil, signalDescription: nil,
                        current: nil, last: enabled && current != nil ? nil : true)
        }
        let isCurrent = item == Self.currentItem
        guard let network = WiFiNetwork.byID[isCurrent ? current ?? "" : item] else { return nil }
        return Cell(template: "cells/wifi-network", on: nil, name: network.name, secured: network.secured ? true : nil,
                    signal: network.signal, signalDescription: network.signalDescription, current: isCurrent ? true : nil,
                    last: isCurrent || item == sortedAvailable.last ? true : nil)
    }

    public func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
        kind == .header && section == Self.networksSection ? Header(title: "Choose a network…") : nil
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .setWifi(let on):
            guard on != enabled else { return }  // no change, no event
            enabled = on
            joining = nil
            // The switch's row shows the new state in the element it has (not a reload).
            try rebuild(&list, reconfiguring: [Self.switchItem])
        case .scan:
            var generator = SystemRandomNumberGenerator()
            try scan(&list, using: &generator)
        case .join(let network):
            guard enabled else { throw ActionError.unprocessable(code: "wifi_off", message: "Wi-Fi is off: turn it on to join a network") }
            guard available.contains(network) else {
                throw ActionError.invalidParameter("network", "must be a network in range: \(sortedAvailable.joined(separator: ", "))")
            }
            try join(network, &list)
        }
    }

    /// A network in range.
    public func shouldSelect(_ item: String) -> Bool { enabled && available.contains(item) }

    /// A person tapped a network: it is joined after a moment (``Pace/join``), by a job.
    public mutating func didSelect(_ item: String) {
        if available.contains(item) { joining = item }
    }

    /// Stable while the radio scans (the page's status line is polite, not a ticker): the
    /// networks in range are in ``details(of:)``.
    public func status(of list: Snapshot<String, String>) -> String {
        guard enabled else { return "Wi-Fi is off" }
        if let joining, let network = WiFiNetwork.byID[joining] { return "Joining \(network.name)…" }
        guard let current, let network = WiFiNetwork.byID[current] else { return "Wi-Fi is on, not connected" }
        return "Connected to \(network.name)"
    }

    public func details(of list: Snapshot<String, String>) -> String {
        let networks = available.count == 1 ? "1 other network" : "\(available.count) other networks"
        return "\(networks) in range · \(scans.grouped) scans · \(joins.grouped) joined"
    }
}
