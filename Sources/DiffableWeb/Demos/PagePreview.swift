import DiffableDataSources

/// A page's view of a list that was not written: see ``Demo/pagePreview(query:)``.
public struct PagePreview: Sendable {
    public var snapshot: Snapshot<String, String>
    public var status: String
    /// Replaces ``Demo/pageValues()`` on the page.
    public var values: [String: String]
    /// The action (and its parameters) that makes the preview real, posted by the client.
    public var action: String
    public var parameters: [String: String]

    public init(snapshot: Snapshot<String, String>, status: String, values: [String: String],
                action: String, parameters: [String: String]) {
        self.snapshot = snapshot
        self.status = status
        self.values = values
        self.action = action
        self.parameters = parameters
    }
}
