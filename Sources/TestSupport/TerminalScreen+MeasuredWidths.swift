extension TerminalScreen {
    /// Strings and the columns xterm 379 advanced its cursor by when they
    /// were printed (cursor position reports, under Xvfb with DejaVu Sans
    /// Mono; `Scripts/real-terminals` shows how to run it). kitty 0.26.5 and
    /// mlterm 3.9 agreed on every one except the spacing vowel signs of
    /// Devanagari and Tamil, which they draw in no column of their own.
    public static let measuredWidths: [(text: String, columns: Int)] = [
        ("क्ष", 2),  // ka, virama, ssa: a conjunct, one column per consonant
        ("नमस्ते", 4),
        ("कि", 2),  // ka and the spacing vowel sign i
        ("हिन्दी", 5),
        ("தமிழ்", 4),
        ("கொ", 2),
        ("ட்டை", 3),
        ("ক্ষ", 2),
        ("ශ්\u{200D}රී", 2),
        ("ำ", 1),  // Thai SARA AM alone
        ("กำ", 2),
        ("น้ำ", 2),
        ("ภาษาไทย", 7),
        ("e\u{301}", 1),
        ("a\u{301}\u{323}", 1),
        ("\u{1100}\u{1161}\u{11A8}", 2),
        ("日本", 4),
        ("🐱", 2),
    ]

    /// Columns the model advances by when printing `text` from the left edge.
    public static func columns(printing text: String) -> Int {
        var screen = TerminalScreen(columns: 200, rows: 2)
        screen.feed(text)
        return screen.cursor.column
    }
}
