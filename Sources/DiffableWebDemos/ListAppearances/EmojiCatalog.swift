/// The List Appearances demo's content: five of Unicode's emoji groups (their CLDR names), six
/// emoji each, with each emoji's CLDR short name and code point.
enum EmojiCatalog {
    struct Emoji: Sendable {
        /// The item's identifier: the short name in lowercase, hyphenated (`grinning-face`).
        let id: String
        let character: String
        /// CLDR's short name, in sentence case.
        let name: String
        /// `U+1F600`.
        var codePoint: String {
            character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        }
    }

    struct Group: Sendable {
        /// The section's identifier.
        let id: String
        /// Unicode's group name.
        let title: String
        let emoji: [Emoji]
    }

    static let groups: [Group] = [
        Group(id: "smileys", title: "Smileys & Emotion", emoji: [
            Emoji(id: "grinning-face", character: "\u{1F600}", name: "Grinning face"),
            Emoji(id: "face-with-tears-of-joy", character: "\u{1F602}", name: "Face with tears of joy"),
            Emoji(id: "smiling-face-with-heart-eyes", character: "\u{1F60D}", name: "Smiling face with heart-eyes"),
            Emoji(id: "thinking-face", character: "\u{1F914}", name: "Thinking face"),
            Emoji(id: "sleeping-face", character: "\u{1F634}", name: "Sleeping face"),
            Emoji(id: "partying-face", character: "\u{1F973}", name: "Partying face"),
        ]),
        Group(id: "animals", title: "Animals & Nature", emoji: [
            Emoji(id: "dog-face", character: "\u{1F436}", name: "Dog face"),
            Emoji(id: "cat-face", character: "\u{1F431}", name: "Cat face"),
            Emoji(id: "fox", character: "\u{1F98A}", name: "Fox"),
            Emoji(id: "panda", character: "\u{1F43C}", name: "Panda"),
            Emoji(id: "koala", character: "\u{1F428}", name: "Koala"),
            Emoji(id: "penguin", character: "\u{1F427}", name: "Penguin"),
        ]),
        Group(id: "food", title: "Food & Drink", emoji: [
            Emoji(id: "red-apple", character: "\u{1F34E}", name: "Red apple"),
            Emoji(id: "croissant", character: "\u{1F950}", name: "Croissant"),
            Emoji(id: "pizza", character: "\u{1F355}", name: "Pizza"),
            Emoji(id: "taco", character: "\u{1F32E}", name: "Taco"),
            Emoji(id: "sushi", character: "\u{1F363}", name: "Sushi"),
            Emoji(id: "doughnut", character: "\u{1F369}", name: "Doughnut"),
        ]),
        Group(id: "activities", title: "Activities", emoji: [
            Emoji(id: "soccer-ball", character: "\u{26BD}", name: "Soccer ball"),
            Emoji(id: "basketball", character: "\u{1F3C0}", name: "Basketball"),
            Emoji(id: "tennis", character: "\u{1F3BE}", name: "Tennis"),
            Emoji(id: "bowling", character: "\u{1F3B3}", name: "Bowling"),
            Emoji(id: "artist-palette", character: "\u{1F3A8}", name: "Artist palette"),
            Emoji(id: "video-game", character: "\u{1F3AE}", name: "Video game"),
        ]),
        Group(id: "travel", title: "Travel & Places", emoji: [
            Emoji(id: "automobile", character: "\u{1F697}", name: "Automobile"),
            Emoji(id: "bicycle", character: "\u{1F6B2}", name: "Bicycle"),
            Emoji(id: "locomotive", character: "\u{1F682}", name: "Locomotive"),
            Emoji(id: "rocket", character: "\u{1F680}", name: "Rocket"),
            Emoji(id: "mount-fuji", character: "\u{1F5FB}", name: "Mount Fuji"),
            Emoji(id: "statue-of-liberty", character: "\u{1F5FD}", name: "Statue of Liberty"),
        ]),
    ]

    /// Each emoji by its identifier, with whether it is its group's last (no separator under it).
    static let byID: [String: (emoji: Emoji, isLast: Bool)] = Dictionary(uniqueKeysWithValues: groups.flatMap { group in
        group.emoji.enumerated().map { ($1.id, ($1, $0 == group.emoji.count - 1)) }
    })

    /// Each group by its identifier.
    static let groupsByID: [String: Group] = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0) })
}
