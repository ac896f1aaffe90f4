/// Every route of the JSON API, as openapi.json documents them. A test checks this table
/// against the document (both ways) and against the router (each entry answers; every other
/// method on its path is 405).
enum APIRoutes {
    static let all: [(method: String, path: String)] = [
        ("GET", "/openapi.json"),
        ("GET", "/api/demos"),
        ("POST", "/api/sessions"),
        ("GET", "/api/sessions/{id}"),
        ("GET", "/api/sessions/{id}/demos/{demo}/snapshot"),
        ("PUT", "/api/sessions/{id}/demos/{demo}/snapshot"),
        ("POST", "/api/sessions/{id}/demos/{demo}/operations"),
        ("GET", "/api/sessions/{id}/demos/{demo}/layout"),
        ("GET", "/api/sessions/{id}/demos/{demo}/actions"),
        ("POST", "/api/sessions/{id}/demos/{demo}/actions/{action}"),
        ("GET", "/api/sessions/{id}/demos/{demo}/events"),
    ]
}
