extension TextSanitizer {
    /// The zero-width joiner and the tag characters are invisible and can hide
    /// text, but they are also how emoji are built: 👨‍👩‍👧 joins people with
    /// U+200D, and a subdivision flag is 🏴 followed by tag letters and the
    /// cancel tag U+E007F. They are kept in those places only.
    enum Invisibles {
        private static let zeroWidthJoiner: UInt32 = 0x200D
        private static let blackFlag: UInt32 = 0x1F3F4
        private static let cancelTag: UInt32 = 0xE007F
        private static let tagLetters: ClosedRange<UInt32> = 0xE0020...0xE007E

        /// `scanned` with every `.invisible` turned into `.keep` where it
        /// builds an emoji and `.drop` everywhere else.
        static func decide(
            _ scanned: [(scalar: Unicode.Scalar, action: Action)]
        ) -> [(scalar: Unicode.Scalar, action: Action)] {
            var decided = scanned
            var index = 0
            while index < decided.count {
                guard decided[index].action == .invisible else {
                    index += 1
                    continue
                }
                let value = decided[index].scalar.value
                if value == zeroWidthJoiner {
                    // What it follows must stay too: a cancel tag ends an
                    // emoji only in a flag kept whole (a stray run is dropped,
                    // and a second pass would then drop the joiner).
                    let joins = index > 0 && decided[index - 1].action != .drop && endsEmoji(decided[index - 1].scalar)
                        && index + 1 < decided.count && startsEmoji(decided[index + 1].scalar)
                    decided[index].action = joins ? .keep : .drop
                    index += 1
                } else {
                    index = decideTags(in: &decided, from: index)
                }
            }
            return decided
        }

        /// Decides the run of tag characters starting at `start` and returns
        /// the index after it: kept whole when it follows 🏴, is tag letters
        /// and ends with the cancel tag; dropped whole otherwise.
        private static func decideTags(
            in decided: inout [(scalar: Unicode.Scalar, action: Action)], from start: Int
        ) -> Int {
            var end = start
            while end < decided.count, decided[end].action == .invisible,
                decided[end].scalar.value != zeroWidthJoiner
            {
                end += 1
                if decided[end - 1].scalar.value == cancelTag { break }
            }
            let run = decided[start..<end].map(\.scalar.value)
            let isFlag = start > 0 && decided[start - 1].scalar.value == blackFlag
                && run.count >= 2 && run.last == cancelTag
                && run.dropLast().allSatisfy { tagLetters.contains($0) }
            for position in start..<end { decided[position].action = isFlag ? .keep : .drop }
            return end
        }

        /// An emoji, its presentation selector, its skin tone, a keycap, or a
        /// finished subdivision flag, any of which a joiner may follow.
        private static func endsEmoji(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value == 0xFE0F || scalar.value == cancelTag || scalar.value == 0x20E3
                || scalar.properties.isEmojiModifier || startsEmoji(scalar)
        }

        /// An emoji a joiner may lead to; not the digits, "#" and "*" that are
        /// emoji only as keycaps.
        private static func startsEmoji(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value > 0x7F && (scalar.properties.isEmoji || scalar.properties.isEmojiPresentation)
        }
    }
}
