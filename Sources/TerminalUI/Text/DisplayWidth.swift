/// How many terminal columns text occupies, measured per grapheme cluster.
///
/// Terminals decide widths from East Asian Width and emoji presentation, not
/// from `String.count`; aligned labels and cut titles need the terminal's view.
/// The rules follow what current terminals (xterm, VTE, kitty, iTerm2, tmux)
/// do for the common cases: wide and fullwidth characters and emoji take two
/// columns, combining marks and other invisible scalars take none, and an
/// emoji sequence (ZWJ family, flag, skin tone, keycap) is one 2-wide cluster.
///
/// Other clusters take the sum of their scalars' widths, as terminals count
/// them (wcwidth per scalar): a Devanagari or Tamil spacing vowel sign
/// takes a column, a conjunct (consonant, virama, consonant) takes one per
/// consonant, and Thai SARA AM takes one. Measured in xterm 379 under Xvfb:
/// "हिन्दी" 5, "क्ष" 2, "தமிழ்" 4, "กำ" 2. kitty 0.26 and mlterm 3.9 draw
/// spacing vowel signs in no column of their own, so there such titles show
/// a little shorter than measured: never wider, so nothing wraps.
public enum DisplayWidth {
    /// The number of columns `text` occupies on a terminal.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// The number of columns one grapheme cluster occupies (0, 1 or 2 except
    /// for Indic conjuncts and clusters with spacing marks, which can take more).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if character.isASCII {
            // "\r\n" is one cluster; every ASCII cluster is a single scalar otherwise.
            return (0x20..<0x7F).contains(first.value) ? 1 : 0
        }
        if scalars.count > 1, let emojiWidth = emojiSequenceWidth(scalars) {
            return emojiWidth
        }
        // Marks and joiners add nothing; spacing marks and the consonants
        // of a conjunct each add their own column.
        return scalars.reduce(0) { $0 + scalarWidth($1) }
    }

    /// Width of a multi-scalar cluster that is an emoji sequence, or nil when
    /// the cluster is ordinary text with marks.
    private static func emojiSequenceWidth(_ scalars: Character.UnicodeScalarView) -> Int? {
        guard let first = scalars.first else { return nil }
        var hasEmojiVariation = false
        var hasTextVariation = false
        var hasJoiner = false
        var hasModifier = false
        var hasKeycap = false
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F: hasEmojiVariation = true
            case 0xFE0E: hasTextVariation = true
            case 0x200D: hasJoiner = true
            case 0x1F3FB...0x1F3FF: hasModifier = true
            case 0x20E3: hasKeycap = true
            default: break
            }
        }
        let firstIsEmoji = first.properties.isEmoji
        if isRegionalIndicator(first) { return 2 }
        guard firstIsEmoji else { return nil }
        if hasEmojiVariation || hasModifier || hasKeycap { return 2 }
        if hasJoiner, first.properties.isEmojiPresentation || first.value >= 0x1F000 { return 2 }
        if hasTextVariation { return isWide(first) ? 2 : 1 }
        return nil
    }

    /// Width of a single scalar standing alone (0, 1 or 2).
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x7F { return 1 }
        if value == 0x00AD { return 1 }  // soft hyphen: terminals draw it
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
            return 0  // Hangul medial vowels and final consonants join the syllable
        }
        if value == 0x200B { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if isRegionalIndicator(scalar) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(scalar) ? 2 : 1
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges outside the emoji blocks
    /// (emoji are decided by their presentation property instead).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Sorted, non-overlapping; from Unicode's EastAsianWidth data (W and F).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3,
        0x2F00...0x2FD5, 0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096,
        0x3099...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3,
        0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF, 0x4E00...0xA48C,
        0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,
        0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1,
        0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1B2FB,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
