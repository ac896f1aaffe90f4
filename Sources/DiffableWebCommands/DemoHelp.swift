import DiffableWeb
import DiffableWebDemos

/// The client commands' help, from the demos `diffable-web serve` registers
/// (``BuiltInDemos``): a demo added there shows up here.
enum DemoHelp {
    static let demos: [DemoDescriptor] = (try? BuiltInDemos.table()) ?? []

    /// `mountains, numbers, photos, …`
    static var demoNames: String { demos.map(\.name).joined(separator: ", ") }

    /// One line per demo: its name and title.
    static var demoList: String {
        let width = demos.map(\.name.count).max() ?? 0
        return (["Demos of diffable-web serve:"] + demos.map { "  \(pad($0.name, width))  \($0.title)" }).joined(separator: "\n")
    }

    /// One line per action: the demo, the action, its parameters (`[name=type]` when optional),
    /// unpadded so that the longest (Photos' `setLayout` and its layouts) fits 80 columns.
    static var actionList: String {
        var lines = ["Actions of diffable-web serve's demos ([name=value]: optional):"]
        for demo in demos {
            for action in demo.actions {
                let parameters = action.parameters.map { parameter in
                    let value = parameter.choices?.joined(separator: "|") ?? parameter.type
                    return parameter.required ? "\(parameter.name)=\(value)" : "[\(parameter.name)=\(value)]"
                }
                lines.append((["  \(demo.name) \(action.name)"] + parameters).joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
