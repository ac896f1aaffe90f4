import Foundation

/// An action's parameters as strings (from JSON or a form), with typed accessors that
/// throw a clear ``ActionError`` rather than trapping.
public struct ActionParameters: Sendable {
    public var values: [String: String]
    /// Parameters that are lists of strings (a JSON array).
    public var lists: [String: [String]]
    public init(_ values: [String: String] = [:], lists: [String: [String]] = [:]) {
        self.values = values
        self.lists = lists
    }

    public func string(_ name: String) -> String? { values[name] }

    /// A list of strings: a JSON array, or (from a form's text area) one string per line,
    /// blank lines dropped. - Throws: ``ActionError/missingParameter(_:)`` when absent.
    public func requiredStrings(_ name: String) throws(ActionError) -> [String] {
        if let list = lists[name] { return list }
        guard let text = values[name] else { throw .missingParameter(name) }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    public func requiredString(_ name: String) throws(ActionError) -> String {
        guard let value = values[name] else { throw .missingParameter(name) }
        return value
    }

    /// An integer parameter within `range`, or `defaultValue` when absent.
    public func int(_ name: String, default defaultValue: Int? = nil, in range: ClosedRange<Int>) throws(ActionError) -> Int {
        guard let text = values[name] else {
            if let defaultValue { return defaultValue }
            throw .missingParameter(name)
        }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .invalidParameter(name, "must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}
