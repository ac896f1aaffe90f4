import Foundation

/// A network the Wi-Fi demo's radio can see: the pool a scan draws from, as the networks
/// around a flat in a city are (a café's, the neighbours', a printer's).
struct WiFiNetwork: Sendable, Hashable {
    /// The item's identifier: `net-` and the network's name in lowercase, hyphenated.
    let id: String
    /// The SSID people read.
    let name: String
    /// Whether it asks for a password (a lock beside its name).
    let secured: Bool
    /// Its signal, in the bars of the Wi-Fi symbol: 1 (weak) to 3 (strong).
    let signal: Int

    init(_ name: String, secured: Bool = true, signal: Int) {
        // ASCII, so that a script types it: accents folded, everything else a hyphen.
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let slug = folded.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? String($0) : "-" }.joined()
        self.id = "net-" + slug.split(separator: "-").joined(separator: "-")
        self.name = name
        self.secured = secured
        self.signal = signal
    }

    /// What a screen reader says of its signal.
    var signalDescription: String {
        switch signal {
        case ...1: "weak signal"
        case 2: "good signal"
        default: "strong signal"
        }
    }

    /// Every network a scan may find, by name (`breeno-net`, the current network of Apple's
    /// sample, is the one a new session is joined to).
    static let pool: [WiFiNetwork] = [
        WiFiNetwork("breeno-net", signal: 3),
        WiFiNetwork("AirSpace1", signal: 2),
        WiFiNetwork("Café Lumière", secured: false, signal: 2),
        WiFiNetwork("DIRECT-7F-LaserJet", signal: 1),
        WiFiNetwork("Fairview Library", secured: false, signal: 1),
        WiFiNetwork("FRITZ!Box 7590 QR", signal: 2),
        WiFiNetwork("Home Sweet Home", signal: 3),
        WiFiNetwork("Linksys00042", signal: 1),
        WiFiNetwork("NETGEAR-5G", signal: 2),
        WiFiNetwork("Pretty Fly for a Wi-Fi", signal: 1),
        WiFiNetwork("Starbucks WiFi", secured: false, signal: 2),
        WiFiNetwork("TP-Link_2.4GHz_8C1E", signal: 1),
        WiFiNetwork("The LAN Before Time", signal: 2),
        WiFiNetwork("Vodafone-A83F", signal: 3),
        WiFiNetwork("xfinitywifi", secured: false, signal: 1),
        WiFiNetwork("Zurich Guest", secured: false, signal: 2),
    ]

    /// Each network of the pool by its identifier.
    static let byID: [String: WiFiNetwork] = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
}
