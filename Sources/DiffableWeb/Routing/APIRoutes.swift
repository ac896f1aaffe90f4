/// Every documented method of the JSON API, as openapi.json documents them: read off the route
/// table (``Routes``). A test checks it against the document (both ways, with the operationIds)
/// and against the router (each entry answers; every other method on its path is 405).
enum APIRoutes {
    static let all: [(method: String, path: String)] = Routes.all.flatMap { route in
        route.documented.map { (method: $0.method, path: route.path) }
    }
}
