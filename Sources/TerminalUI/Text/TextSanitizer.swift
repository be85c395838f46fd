/// Makes untrusted text (titles, owner names, error messages from a server)
/// safe to put on a terminal, and cuts text to a number of columns.
///
/// A title must not be able to clear the screen, set the clipboard (OSC 52),
/// retitle the window, move the cursor, or reorder the line with
/// bidirectional overrides. Everything that could drive the terminal is
/// removed, so the result is one line of printable text.
public enum TextSanitizer {
    /// Longest text (in characters) `sanitize` keeps before cutting with "…".
    public static let defaultMaximumLength = 300

    /// One safe line: escape sequences (7-bit and 8-bit introducers, with their
    /// payloads), C0/C1 controls, DEL, bidirectional controls and invisible
    /// characters (see `Invisibles`) removed; newlines, tabs and other whitespace collapsed to single spaces;
    /// trimmed; cut to `maximumLength` characters with "…".
    public static func sanitize(_ text: String, maximumLength: Int = defaultMaximumLength) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for (scalar, action) in scan(text) {
            switch action {
            case .keep:
                if pendingSpace, !output.isEmpty { output.append(" ") }
                pendingSpace = false
                output.append(scalar)
            case .space, .lineBreak:
                pendingSpace = true
            case .drop, .invisible:  // `scan` has decided every invisible
                break
            }
        }
        return cut(String(output), maximumLength: maximumLength)
    }

    /// Multi-line text with everything that could drive the terminal removed
    /// (escape sequences, controls other than newline and tab, bidirectional
    /// controls, invisible characters); spacing and length are left alone.
    /// For output that must be plain, such as a non-interactive terminal's.
    public static func stripControls(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for (scalar, action) in scan(text) {
            switch action {
            case .keep, .space:
                if scalar != "\r" { output.append(scalar) }  // CR could overwrite the line
            case .lineBreak:
                output.append("\n")
            case .drop, .invisible:  // `scan` has decided every invisible
                break
            }
        }
        return String(output)
    }

    /// `text` cut to at most `columns` display columns; when it had to be cut
    /// the last column is "…". Grapheme clusters are never split, so the
    /// result can be one column narrower than asked when a wide character
    /// would straddle the edge. Expects sanitised (single-line) text.
    public static func fit(_ text: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        if DisplayWidth.of(text) <= columns { return text }
        let budget = columns - 1  // room left for the ellipsis
        var result = ""
        var used = 0
        for character in text {
            let width = DisplayWidth.of(character)
            if used + width > budget { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// Which side of the column the text sits on when padded.
    public enum Alignment: Sendable {
        case left, right
    }

    /// `text` fitted to `columns` and padded with spaces to exactly `columns`
    /// display columns, so labels line up under each other whatever the script.
    public static func pad(_ text: String, toColumns columns: Int, alignment: Alignment = .left) -> String {
        guard columns > 0 else { return "" }
        let fitted = fit(text, columns: columns)
        let padding = String(repeating: " ", count: max(0, columns - DisplayWidth.of(fitted)))
        switch alignment {
        case .left: return fitted + padding
        case .right: return padding + fitted
        }
    }

    // MARK: - Classification

    /// What to do with a scalar outside escape sequences.
    enum Action {
        case keep, space, drop
        case lineBreak  // LF, VT, FF, NEL, line and paragraph separators
        case invisible  // kept or dropped by its neighbours, see `Invisibles`
    }

    /// The scalars outside escape sequences with what to do with each, every
    /// invisible one already decided by its neighbours.
    private static func scan(_ text: String) -> [(scalar: Unicode.Scalar, action: Action)] {
        var scanner = Scanner(text.unicodeScalars)
        var scanned: [(scalar: Unicode.Scalar, action: Action)] = []
        while let next = scanner.next() {
            if next.action != .drop { scanned.append(next) }
        }
        return Invisibles.decide(scanned)
    }

    private static func classify(_ scalar: Unicode.Scalar) -> Action {
        switch scalar.value {
        case 0x09, 0x0D: return .space
        case 0x0A, 0x0B, 0x0C, 0x85: return .lineBreak
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: return .drop
        // Bidirectional embeddings, overrides, isolates and marks.
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return .drop
        // Interlinear annotation controls and the object replacement anchors.
        case 0xFFF9...0xFFFB: return .drop
        // Zero-width space and non-joiner, word joiner and invisible
        // operators, byte-order mark, Mongolian vowel separator: text can
        // hide in them where a person cannot see it.
        case 0x200B, 0x200C, 0x2060...0x2064, 0xFEFF, 0x180E: return .drop
        // The joiner and the tag characters also build emoji, so their
        // neighbours decide.
        case 0x200D, 0xE0000...0xE007F: return .invisible
        case 0x2028, 0x2029: return .lineBreak
        default:
            return scalar.properties.isWhitespace ? .space : .keep
        }
    }

    /// Cuts to `maximumLength` characters, ending in "…" when cut.
    private static func cut(_ text: String, maximumLength: Int) -> String {
        guard maximumLength > 0 else { return "" }
        guard text.count > maximumLength else { return text }
        var prefix = String(text.prefix(maximumLength - 1))
        while prefix.last == " " { prefix.removeLast() }
        // A joiner was kept because an emoji followed it; the cut can end a
        // character on it (🐱 + joiner, then a regional indicator, which is a
        // new character). Before "…" it joins nothing, and a second pass
        // would drop it: drop it now, so sanitising twice changes nothing.
        while prefix.unicodeScalars.last?.value == 0x200D { prefix.unicodeScalars.removeLast() }
        return prefix + "…"
    }

    // MARK: - Escape sequence skipping

    /// Walks the scalars and swallows whole escape sequences.
    private struct Scanner {
        private let scalars: [Unicode.Scalar]
        private var index = 0

        init(_ view: String.UnicodeScalarView) {
            scalars = Array(view)
        }

        /// The next scalar outside escape sequences and what to do with it;
        /// the sequences on the way are skipped whole.
        mutating func next() -> (scalar: Unicode.Scalar, action: Action)? {
            while let scalar = nextScalar() {
                switch scalar.value {
                case 0x1B: skipEscape()  // ESC: a 7-bit sequence follows
                case 0x9B: skipControlSequence()  // 8-bit CSI
                case 0x90, 0x98, 0x9D, 0x9E, 0x9F: skipControlString()  // 8-bit DCS, SOS, OSC, PM, APC
                default: return (scalar, TextSanitizer.classify(scalar))
                }
            }
            return nil
        }

        private mutating func nextScalar() -> Unicode.Scalar? {
            guard index < scalars.count else { return nil }
            defer { index += 1 }
            return scalars[index]
        }

        private func peek() -> Unicode.Scalar? {
            index < scalars.count ? scalars[index] : nil
        }

        /// After ESC: CSI, a control string, or a short (nF / Fp / Fe / Fs)
        /// escape. A lone ESC at the end, or before a non-ASCII scalar, is
        /// simply dropped.
        private mutating func skipEscape() {
            guard let introducer = peek() else { return }
            switch introducer {
            case "[":
                index += 1
                skipControlSequence()
            case "]", "P", "X", "^", "_":
                index += 1
                skipControlString()
            case " "..."/":
                // nF escape: intermediates, then one final byte.
                while let scalar = peek(), (0x20...0x2F).contains(scalar.value) { index += 1 }
                if let scalar = peek(), (0x30...0x7E).contains(scalar.value) { index += 1 }
            case "0"..."~":
                index += 1
            default:
                break
            }
        }

        /// CSI parameters (0x30–0x3F), intermediates (0x20–0x2F), final
        /// (0x40–0x7E). Anything else ends the sequence without being eaten,
        /// which is what terminals do with a malformed CSI.
        private mutating func skipControlSequence() {
            while let scalar = peek() {
                switch scalar.value {
                case 0x20...0x3F:
                    index += 1
                case 0x40...0x7E:
                    index += 1
                    return
                default:
                    return
                }
            }
        }

        /// OSC / DCS / SOS / PM / APC payload up to a string terminator: BEL,
        /// ESC \ or 8-bit ST. Without a terminator everything to the end is
        /// payload (a terminal would swallow it too).
        private mutating func skipControlString() {
            while let scalar = nextScalar() {
                switch scalar.value {
                case 0x07, 0x9C:
                    return
                case 0x1B:
                    if peek() == "\\" { index += 1 }
                    return
                case 0x18, 0x1A:
                    return  // CAN and SUB abort a control string
                default:
                    continue
                }
            }
        }
    }
}

extension TextSanitizer {
    /// `text` broken into lines of at most `columns` display columns, nothing
    /// left out: the lines joined give `text` back. For lines a person copies
    /// (a credit, a link), which "…" would make useless. Grapheme clusters
    /// are never split. Expects sanitised (single-line) text.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        let width = max(2, columns)  // a wide character needs two
        var lines: [String] = []
        var line = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > width, !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            line.append(character)
            used += characterWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
