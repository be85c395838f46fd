import Foundation

/// OSC 8 hyperlinks: text the terminal lets a person click or open.
///
/// Only terminals known to follow them get them; the rest would print the
/// sequence's parameters or nothing at all, so they get plain text. A link
/// target comes from a server like any other text: only `http` and `https`
/// links of printable ASCII (no spaces, no controls, nothing that could end
/// the sequence early) of a sane length are written.
enum Hyperlink {
    /// Whether the terminal the environment describes follows OSC 8 links:
    /// iTerm2, kitty, WezTerm, VTE (GNOME Terminal, Tilix…), Windows
    /// Terminal and foot; inside tmux only from 3.4 on (which passes links
    /// on with its `hyperlinks` feature) and only when the terminal around
    /// it is one of those.
    static func isSupported(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if !(environment["TMUX"] ?? "").isEmpty || program == "tmux" {
            guard program == "tmux", let version = environment["TERM_PROGRAM_VERSION"],
                  isAtLeast(version, major: 3, minor: 4)
            else { return false }
            return outerTerminalSupports(environment, term: "")
        }
        return outerTerminalSupports(environment, term: term)
    }

    private static func outerTerminalSupports(_ environment: [String: String], term: String) -> Bool {
        if ["iTerm.app", "WezTerm"].contains(environment["TERM_PROGRAM"] ?? "") { return true }
        if !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty" { return true }
        if !(environment["WT_SESSION"] ?? "").isEmpty { return true }
        if term.hasPrefix("foot") { return true }
        // VTE added hyperlinks in 0.50 (VTE_VERSION 5000).
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        return false
    }

    /// "3.4", "3.5a", "next-3.6" and the like, compared as major.minor.
    private static func isAtLeast(_ version: String, major: Int, minor: Int) -> Bool {
        let digits = version.drop { !$0.isNumber }
        let parts = digits.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        guard let first = parts.first else { return false }
        let second = parts.count > 1 ? parts[1] : 0
        return (first, second) >= (major, minor)
    }

    /// The target as written into the sequence, or nil when it is not one
    /// the app will send to the terminal.
    static func target(_ url: URL?) -> String? {
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let text = url.absoluteString
        guard text.utf8.count <= 2_000, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return text
    }

    /// `text` (already sanitised and fitted) as a link to `url` when
    /// `enabled` and the target is safe; otherwise `text` unchanged.
    static func wrap(_ text: String, to url: URL?, enabled: Bool) -> String {
        guard enabled, !text.isEmpty, let target = target(url) else { return text }
        return "\u{1B}]8;;\(target)\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
    }
}
