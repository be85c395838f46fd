import PhotoCore

/// The environment variables `--help` documents, each with its sentence:
/// every provider's from its descriptor, then the app's own. The man page's
/// ENVIRONMENT is written from this list (Scripts/lib/manpage.py reads it
/// from the dump-help JSON), which refuses a variable `--help` names
/// without a sentence here.
enum EnvironmentHelp {
    static let app = [
        EnvironmentVariable("FLICKR_PROBE_TIMEOUT_MS", "How long --images auto waits for the terminal to say what it can draw (default 250 ms), for slow links."),
        EnvironmentVariable("XDG_STATE_HOME", "History and the last session go to $XDG_STATE_HOME/flickr (default ~/.local/state/flickr), one of each per service."),
        EnvironmentVariable("XDG_CACHE_HOME", "Images and thumbnails as drawn go to $XDG_CACHE_HOME/flickr (default ~/.cache/flickr)."),
        EnvironmentVariable("XDG_CONFIG_HOME", "flickr login keeps the Flickr sign-in in $XDG_CONFIG_HOME/flickr (default ~/.config/flickr), readable only by you."),
        EnvironmentVariable("NO_COLOR", "When set, no colour."),
        EnvironmentVariable("TERM", "With TERM=dumb the app reads plain lines and prints plain text, as when standard input is not a terminal."),
    ]

    /// "Environment:" and one line per variable: two spaces, the name, two
    /// spaces, the sentence.
    static var section: String {
        "Environment:\n" + (ProviderOptions.registry.descriptors.flatMap(\.variables) + app)
            .map { "  \($0.name)  \($0.sentence)" }.joined(separator: "\n")
    }
}
