import Foundation
import HTTPTestSupport
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Settings: Wi-Fi over real sockets: the switch's changeset on the stream (one row and one
/// section, the switch's cell updated in place, nothing reloaded), by JSON and by a form without
/// JavaScript; the scan runs only while Wi-Fi is on and someone watches; a tap joins a network
/// and leaves nothing selected.
@Suite("Live Wi-Fi: the switch is one row and one section on the stream; scans only while on and watched; a tap joins", .stopsLiveServers)
struct LiveWiFiTests {
    static let path = "/demos/wifi"

    /// A radio whose scans are `scan` apart (an hour: none comes during a test that does not
    /// want one) and whose joins are at once.
    func start(scan: Duration = .seconds(3600), stateDirectory: String? = nil) async throws -> (LiveServer, String) {
        let wifi = try WiFiSettings.descriptor(pace: WiFiSettings.Pace(scan: scan, join: .zero))
        let live = try await LiveServer.start {
            $0.demos = [wifi]
            if let stateDirectory { $0.stateDirectory = stateDirectory }
        }
        return (live, try await live.newSession(Self.path))
    }

    func demo(_ live: LiveServer, _ cookie: String) throws -> (LiveList, WebListDemo<WiFiSettings>) {
        let list = try #require(live.app.sessionList(cookie: cookie, demo: WiFiSettings.name))
        return (list, try #require(list.demo as? WebListDemo<WiFiSettings>))
    }

    static func inserted(_ event: SSEEvent) -> [String] {
        (event.json["inserted"] as? [[String: Any]] ?? []).flatMap { $0["ids"] as? [String] ?? [] }
    }

    static func updated(_ event: SSEEvent) -> [[String: Any]] { event.json["updated"] as? [[String: Any]] ?? [] }

    /// The next `changeset` on the stream (a `window` answer to nothing is not expected, but
    /// is skipped rather than misread).
    func nextChangeset(_ stream: inout EventReader) async throws -> SSEEvent {
        while true {
            let event = try await next(&stream)
            if event.name == "changeset" { return event }
        }
    }

    @Test("off: one item deleted and the networks section gone, the switch's cell updated in place (not reloaded); on: the reverse",
          arguments: [390, 1280])
    func toggle(width: Int) async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("\(Self.path)/events?width=\(width)&height=900&top=0", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        let (list, _) = try demo(live, cookie)
        let networks = try list.dataSource.snapshot().itemIdentifiers(inSection: WiFiSettings.networksSection)
        #expect(networks.count == 6)

        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":false}"#, cookie: cookie).status == 200)
        let off = try await nextChangeset(&stream)
        // One row outside the deleted section; the wire names the section's rows too ("deleted":
        // every item that leaves), after it, in their order.
        #expect(off.json["deleted"] as? [String] == ["current-network"] + networks)
        #expect(off.json["sections"] as? [String] == ["config"])
        #expect(Self.inserted(off).isEmpty && (off.json["moved"] as? [Any] ?? []).isEmpty)
        let offUpdates = Self.updated(off)
        #expect(offUpdates.map { $0["id"] as? String } == ["wifi-enabled"])
        #expect(offUpdates.allSatisfy { $0["reload"] as? Bool == false }, "reconfigured, never reloaded")
        #expect((offUpdates.first?["html"] as? String)?.contains(#"role="switch" aria-checked="false""#) == true)
        #expect(off.json["status"] as? String == "Wi-Fi is off")

        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":true}"#, cookie: cookie).status == 200)
        let on = try await nextChangeset(&stream)
        #expect((on.json["deleted"] as? [String] ?? []).isEmpty && (on.json["moved"] as? [Any] ?? []).isEmpty)
        #expect(on.json["sections"] as? [String] == ["config", "networks"])
        let runs = on.json["inserted"] as? [[String: Any]] ?? []
        #expect(runs.first { $0["section"] as? String == "config" }?["ids"] as? [String] == ["current-network"])
        #expect(runs.first { $0["section"] as? String == "networks" }?["ids"] as? [String] == networks, "the new section's rows")
        #expect(runs.count == 2)
        #expect(Self.updated(on).map { $0["id"] as? String } == ["wifi-enabled"] && Self.updated(on).allSatisfy { $0["reload"] as? Bool == false })
        #expect((Self.updated(on).first?["html"] as? String)?.contains(#"aria-checked="true""#) == true)

        // The same setting again is no change: no version, no event.
        let version = list.version
        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":true}"#, cookie: cookie).status == 200)
        #expect(list.version == version)
        let bad = try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":"maybe"}"#, cookie: cookie)
        #expect(bad.status == 400 && bad.text.contains("invalid_parameter"))
        stream.socket.close()
    }

    @Test("without JavaScript the switch is a form: its post turns Wi-Fi off and the page shows the switch off")
    func formPost() async throws {
        let (live, cookie) = try await start()
        let page = try await get(port: live.port, Self.path, headers: ["Cookie": "dw_session=\(cookie)"]).text
        #expect(page.contains(#"action="/demos/wifi/actions/setWifi" data-action="setWifi"><input type="hidden" name="enabled" value="false"><button type="submit" role="switch" aria-checked="true""#))
        let posted = try await post(port: live.port, "\(Self.path)/actions/setWifi", body: Array("enabled=false".utf8),
                                    headers: ["Cookie": "dw_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(posted.status == 303)
        let (list, wifi) = try demo(live, cookie)
        #expect(!wifi.current.enabled && list.dataSource.snapshot().itemIdentifiers == ["wifi-enabled"])
        let after = try await get(port: live.port, Self.path, headers: ["Cookie": "dw_session=\(cookie)"]).text
        #expect(after.contains(#"name="enabled" value="true"><button type="submit" role="switch" aria-checked="false""#))
    }

    @Test("the scan runs only while Wi-Fi is on and someone watches; each scan keeps the networks sorted")
    func scanOnlyWhileOnAndWatched() async throws {
        let (live, cookie) = try await start(scan: .milliseconds(5))
        let (list, wifi) = try demo(live, cookie)
        // No scan is what is under test: no job runs to make one (jobs start and stop with the
        // write, or the stream, that asks for them).
        #expect(wifi.runningJobIDs.isEmpty, "on, but nobody watches: no job")
        let unwatched = list.version
        var stream = try await live.events("\(Self.path)/events?width=390&height=844", cookie: cookie)
        let first = try await next(&stream)
        #expect(first.name == "snapshot" && first.json["version"] as? Int == unwatched, "nobody watched: no scan was made")
        var scans = 0
        while scans < 3 {
            let event = try await nextChangeset(&stream)
            let touched = (event.json["deleted"] as? [String] ?? []) + Self.inserted(event)
            guard !touched.isEmpty else { continue }
            #expect(touched.allSatisfy { $0.hasPrefix("net-") }, "a scan adds or removes networks only: \(touched)")
            let keys = try list.dataSource.snapshot().itemIdentifiers(inSection: WiFiSettings.networksSection).map(WiFiSettings.sortKey)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "sorted by name: \(keys)")
            scans += 1
        }
        #expect(wifi.runningJobIDs == ["scan"], "on and watched: the scanning job runs")

        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":false}"#, cookie: cookie).status == 200)
        #expect(wifi.runningJobIDs.isEmpty, "off: the job is cancelled with the write that turned it off")
        let off = list.version
        let count = wifi.current.scans
        #expect(try await live.postJSON("\(Self.path)/actions/scan", "{}", cookie: cookie).status == 200)
        #expect(list.version == off && wifi.current.scans == count, "off: even a script's scan finds nothing")

        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":true}"#, cookie: cookie).status == 200)
        #expect(wifi.runningJobIDs == ["scan"], "on again, watched: scanning again")
        stream.socket.close()
        #expect(await eventually("the closed stream is counted out, and the scan stops") { wifi.runningJobIDs.isEmpty })
    }

    @Test("a person's tap on a network joins it: the tap selects it, the join deletes its row, brings the previous network back sorted, and leaves nothing selected")
    func tapJoins() async throws {
        let (live, cookie) = try await start()
        var stream = try await live.events("\(Self.path)/events?width=1280&height=900", cookie: cookie)
        _ = try await next(&stream)
        let refused = try await live.postJSON("\(Self.path)/select", #"{"item":"wifi-enabled","seq":1}"#, cookie: cookie)
        #expect(refused.status == 200 && ((object(refused)["selection"] as? [String: Any])?["items"] as? [String]) == [], "the switch's row is not selectable")

        let tap = try await live.postJSON("\(Self.path)/select", #"{"item":"net-netgear-5g","seq":2}"#, cookie: cookie)
        #expect(tap.status == 200)
        var joined: SSEEvent?
        while joined == nil {
            let event = try await nextChangeset(&stream)
            if (event.json["deleted"] as? [String] ?? []).contains("net-netgear-5g") { joined = event }
        }
        let join = try #require(joined)
        #expect(join.json["deleted"] as? [String] == ["net-netgear-5g"])
        #expect(Self.inserted(join) == ["net-breeno-net"])
        #expect(Self.updated(join).contains { $0["id"] as? String == "current-network" && $0["reload"] as? Bool == false })
        #expect((join.json["selection"] as? [String: Any])?["items"] as? [String] == [], "the joined row left the list: nothing is selected")
        #expect(join.json["status"] as? String == "Connected to NETGEAR-5G")
        let (list, wifi) = try demo(live, cookie)
        #expect(wifi.current.current == "net-netgear-5g" && wifi.current.joins == 1)
        #expect(try list.dataSource.snapshot().itemIdentifiers(inSection: WiFiSettings.networksSection) == wifi.current.sortedAvailable)
        stream.socket.close()
    }

    @Test("the API lists the typed actions, and a script joins a network; one out of range is a 400 that changes nothing")
    func api() async throws {
        let (live, _) = try await start()
        let id = try #require(object(try await live.postJSON("/api/sessions", ""))["id"] as? String)
        let openapi = object(try await get(port: live.port, "/openapi.json"))
        let paths = openapi["paths"] as? [String: Any] ?? [:]
        for action in ["setWifi", "scan", "join"] {
            let post = (paths["/api/sessions/{id}/demos/wifi/actions/\(action)"] as? [String: Any])?["post"] as? [String: Any]
            #expect(post?["operationId"] as? String == "wifi.\(action)", "OpenAPI lists \(action)")
        }
        let joined = try await live.postJSON("/api/sessions/\(id)/demos/wifi/actions/join", #"{"network":"net-airspace1"}"#)
        #expect(joined.status == 200)
        let far = try await live.postJSON("/api/sessions/\(id)/demos/wifi/actions/join", #"{"network":"net-linksys00042"}"#)
        #expect(far.status == 400 && far.text.contains("invalid_parameter"))
        let snapshot = object(try await get(port: live.port, "/api/sessions/\(id)/demos/wifi/snapshot"))
        let sections = snapshot["sections"] as? [[String: Any]] ?? []
        #expect(sections.map { $0["id"] as? String } == ["config", "networks"])
        let items = (sections.last?["items"] as? [Any] ?? []).compactMap { ($0 as? String) ?? ($0 as? [String: Any])?["id"] as? String }
        #expect(items.contains("net-breeno-net") && !items.contains("net-airspace1"), "\(sections)")
    }

    @Test("the switch, the network joined and the networks in range survive a restart, and the page opens on them")
    func restart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (live, cookie) = try await start(stateDirectory: directory.path)
        #expect(try await live.postJSON("\(Self.path)/actions/join", #"{"network":"net-home-sweet-home"}"#, cookie: cookie).status == 200)
        #expect(try await live.postJSON("\(Self.path)/actions/setWifi", #"{"enabled":false}"#, cookie: cookie).status == 200)
        let (list, wifi) = try demo(live, cookie)
        let (items, version, saved) = (list.dataSource.snapshot().itemIdentifiers, list.version, wifi.current)

        let second = try await makeApp {
            $0.demos = [try WiFiSettings.descriptor()]
            $0.stateDirectory = directory.path
        }
        let returning = Visitor(second)
        returning.cookie = cookie
        let page = await returning.send(.get, Self.path)
        #expect(page.sessionCookie == nil, "the same session")
        let restored = try #require(returning.list(WiFiSettings.name))
        #expect(restored.dataSource.snapshot().itemIdentifiers == items && restored.version == version)
        let returned = try #require(restored.demo as? WebListDemo<WiFiSettings>).current
        #expect(!returned.enabled && returned.current == "net-home-sweet-home" && returned.available == saved.available && returned.joins == 1)
        #expect(page.text.contains(#"role="switch" aria-checked="false""#))
        // On again: the networks in range as they were, the joined one not among them.
        #expect(await returning.send(.post, "\(Self.path)/actions/setWifi", json: #"{"enabled":true}"#).status == .ok)
        let networks = try restored.dataSource.snapshot().itemIdentifiers(inSection: WiFiSettings.networksSection)
        #expect(networks == saved.sortedAvailable && !networks.contains("net-home-sweet-home") && networks.contains("net-breeno-net"))
    }
}
