/// The people the Editing demo lists: a fixed cast, each with a role the row shows and an
/// accessory label (a phone label, as Contacts shows).
struct Contact: Sendable {
    let id: String
    let name: String
    let detail: String
    let phone: String
}

enum Contacts {
    /// The owner's own card: it cannot be deleted (UIKit's `canEditRowAt` false) or moved.
    static let me = "c-me"

    static let favorites: [Contact] = [
        Contact(id: me, name: "My Card", detail: "Me", phone: "mobile"),
        Contact(id: "c-ada", name: "Ada Lovelace", detail: "Analyst", phone: "home"),
        Contact(id: "c-grace", name: "Grace Hopper", detail: "Rear admiral", phone: "work"),
        Contact(id: "c-alan", name: "Alan Turing", detail: "Codebreaker", phone: "mobile"),
    ]

    static let others: [Contact] = [
        Contact(id: "c-edsger", name: "Edsger Dijkstra", detail: "Shortest paths", phone: "work"),
        Contact(id: "c-barbara", name: "Barbara Liskov", detail: "Substitution", phone: "mobile"),
        Contact(id: "c-donald", name: "Donald Knuth", detail: "Typesetter", phone: "home"),
        Contact(id: "c-frances", name: "Frances Allen", detail: "Compilers", phone: "work"),
        Contact(id: "c-john", name: "John Backus", detail: "Fortran", phone: "mobile"),
        Contact(id: "c-katherine", name: "Katherine Johnson", detail: "Trajectories", phone: "home"),
        Contact(id: "c-ken", name: "Ken Thompson", detail: "Unix", phone: "work"),
        Contact(id: "c-margaret", name: "Margaret Hamilton", detail: "Apollo software", phone: "mobile"),
        Contact(id: "c-radia", name: "Radia Perlman", detail: "Spanning trees", phone: "work"),
        Contact(id: "c-tony", name: "Tony Hoare", detail: "Quicksort", phone: "home"),
    ]

    static let byID: [String: Contact] = Dictionary(uniqueKeysWithValues: (favorites + others).map { ($0.id, $0) })
}
