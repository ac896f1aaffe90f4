import DiffableWeb
/// How the index page introduces each built-in demo to someone who has never seen it: a
/// picture, one plain sentence (no jargon: that lives in the README), and what to try first.
extension BuiltInDemos {
    struct Introduction {
        var summary: String
        var tryThis: String
        /// The request the page's "Script this session" panel shows, when not the first action's with `{}`.
        var example: ExampleRequest?
    }

    static let introductions: [String: Introduction] = [
        "mountains": Introduction(summary: "A grid of mountains that filters as you type.",
                                  tryThis: "Type “ann” and watch the grid rearrange itself.",
                                  example: ExampleRequest(action: "search", body: #"{"query":"ben"}"#)),
        "numbers": Introduction(summary: "A numbered list you can add to, remove from and reorder.",
                                tryThis: "Press Append a few times, then Edit, and drag a row to a new place.",
                                example: ExampleRequest(action: "append", body: #"{"count":3}"#)),
        "photos": Introduction(summary: "A photo library in four layouts, loading more as you scroll.",
                               tryThis: "Switch between List, 1 + 3, 3 + 3 and Grid: every photo glides to its new place.",
                               example: ExampleRequest(action: "setLayout", body: #"{"layout":"grid"}"#)),
        "urls": Introduction(summary: "A wall of pictures that a stream replaces every few seconds.",
                             tryThis: "Watch a new batch arrive; pictures in both batches slide to their new places.",
                             example: ExampleRequest(action: "publish", body: #"{"urls":["/demos/photos/assets/p001.svg","/demos/photos/assets/p002.svg"]}"#)),
        "destinations": Introduction(summary: "A travel feed whose pictures load just before you scroll to them.",
                                     tryThis: "Like a post: only its heart changes. A picture that fails offers Retry.",
                                     example: ExampleRequest(action: "like", body: #"{"post":"post-0001"}"#)),
        "explore": Introduction(summary: "An App Store–style page: carousels that scroll sideways above a list.",
                                tryThis: "Swipe a carousel, then press Shuffle in its header.",
                                example: ExampleRequest(action: "shuffle", body: #"{"section":"featured"}"#)),
        "outline": Introduction(summary: "The world’s mountains by height, in folders you open and close.",
                                tryThis: "Open “8,000–8,999 m”, then move through the tree with the arrow keys.",
                                example: ExampleRequest(action: "expand", body: #"{"item":"h8000-8999"}"#)),
        "insertion-sort": Introduction(summary: "Rows of coloured tiles that sort themselves, side by side.",
                                       tryThis: "Press Start: every row moves one tile into place at a time; sorted, they reshuffle.",
                                       example: nil),
        "list-appearances": Introduction(summary: "One list of emoji in the five looks of an iPhone or iPad list.",
                                         tryThis: "Switch between Plain, Inset grouped and Sidebar: every row glides to its new place.",
                                         example: ExampleRequest(action: "appearance", body: #"{"style":"insetGrouped"}"#)),
        "emoji-explorer": Introduction(summary: "Emoji by category: search them, select several, swipe a row to star or hide it.",
                                       tryThis: "Swipe a row to the right to star it, or right-click a selection for its menu.",
                                       example: ExampleRequest(action: "search", body: #"{"query":"face"}"#)),
        "editing": Introduction(summary: "A list of people you edit as on an iPhone: delete, reorder, select several.",
                                tryThis: "Press Edit, tap a red circle, then Delete; drag a row by its handle to the other section.",
                                example: ExampleRequest(action: "restore", body: "{}")),
        "wifi": Introduction(summary: "A phone’s Wi-Fi settings: a switch, the network you are on, and the networks around you.",
                             tryThis: "Turn Wi-Fi off and on: the networks fold away and come back. Tap a network to join it.",
                             example: ExampleRequest(action: "setWifi", body: #"{"enabled":false}"#)),
    ]

    /// The descriptors with their index-page introduction and picture (`Public/images/demos/`).
    static func introduced(_ descriptors: [DemoDescriptor]) -> [DemoDescriptor] {
        descriptors.map { descriptor in
            var introduced = descriptor
            guard let introduction = introductions[descriptor.name] else { return introduced }
            introduced.summary = introduction.summary
            introduced.tryThis = introduction.tryThis
            if let example = introduction.example { introduced.example = example }
            introduced.picture = "/images/demos/\(descriptor.name).svg"
            return introduced
        }
    }
}
