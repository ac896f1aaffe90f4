// A detail accessory's tap, in a write of its own: the list's `accessoryButtonTapped(for:)`,
// and, when that changed its state, the list as it is applied (a version every tab sees).
extension LiveList {
    /// Taps `item`'s detail accessory. A `seq` not newer than the newest one applied for the
    /// same `client` is ignored, as an action's is.
    /// - Returns: the version after the request.
    /// - Throws: `SelectionError.unknownItems`, ``ActionError`` (nothing changed), or what a write throws.
    func tapDetailAccessory(of item: String, client: String, seq: Int?) async throws -> Int {
        try await exclusive { list in
            if let seq, self.isStale(seq: seq, client: "detail:" + client) { return list.version }
            guard let demo = self.demo as? any DetailAccessoryServing, demo.hasDetailAccessories else {
                throw ActionError.unprocessable(code: "accessory_not_offered", message: "The \(self.name) list has no accessories")
            }
            _ = try demo.tapDetailAccessory(of: item, on: list)
            return list.version
        }
    }
}
