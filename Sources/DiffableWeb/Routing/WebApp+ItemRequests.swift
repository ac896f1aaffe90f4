import Foundation
import MicroHTTP

// A request about one item of a list (`…/delete-item`, `…/detail-accessory`): its body, a
// script's call and a person's from the page, which differ only in what they check and run.

extension WebApp {
    /// `{"item": I, "seq": N, "client": C}`, or a form's `item`.
    struct ItemInput: Decodable {
        var item: String?
        var seq: Int?
        var client: String?
    }

    /// The item a request names, checked, and the rest of its body.
    func itemInput(_ request: Request) throws -> (item: String, input: ItemInput) {
        let input: ItemInput = request.isForm
            ? ItemInput(item: QueryItem.parse(request.bodyText).last { $0.name == "item" }?.value)
            : try decodeBody(request)
        guard let item = input.item else { throw HTTPError(.badRequest, code: "missing_parameter", message: "Missing parameter: item") }
        try APILimits.checkIdentifier(item, at: "item")
        return (item, input)
    }

    /// `{"version": V, "<key>": I}`: what an item request answers.
    static func itemAnswer(version: Int, key: StaticString, item: String) -> Response {
        var writer = JSONWriter(capacity: 48 + item.utf8.count)
        writer.raw("{\"version\":"); writer.int(version)
        writer.raw(",\""); writer.raw(key); writer.raw("\":"); writer.string(item)
        writer.raw("}")
        return Response(headers: ["Content-Type": "application/json"], body: .bytes(writer.bytes))
    }

    /// A script's item request: `offers` says whether the list takes it (else its error is
    /// thrown, nothing read); `perform` runs it and returns the version after it.
    func itemRequest(_ request: Request, _ list: LiveList, answerKey: StaticString, offers: (LiveList) throws -> Void,
                     perform: (LiveList, String) async throws -> Int) async throws -> Response {
        try offers(list)
        let (item, _) = try itemInput(request)
        return Self.itemAnswer(version: try await perform(list, item), key: answerKey, item: item)
    }

    /// A person's item request from the page: the session's list, `offers` checked, `perform`
    /// (with the page's client and `seq`) retried when a restore won the race; JSON answers, a
    /// form is `303` back to the page.
    func itemRequest(_ request: Request, _ descriptor: DemoDescriptor, answerKey: StaticString, offers: (LiveList) throws -> Void,
                     perform: @escaping (LiveList, String, _ client: String, _ seq: Int?) async throws -> Int) async throws -> Response {
        let (item, input) = try itemInput(request)
        let client = input.client.map { String($0.prefix(64)) } ?? "default"
        let (session, cookie) = try await session(for: request)
        let list = try await list(session, descriptor)
        try offers(list)
        let version = try await retryingLostRace(session, descriptor, list) { list in
            try await perform(list, item, client, input.seq)
        }
        if request.isForm { return Response.redirect(to: "/demos/\(descriptor.name)").with(cookie) }
        return Self.itemAnswer(version: version, key: answerKey, item: item).with(cookie)
    }
}
