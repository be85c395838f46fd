/// What a line typed at the interactive prompt asks for.
///
/// Plain text is a search; an empty line pages on; a line starting with "/"
/// is a command. Mistakes come back as `.unknown` or `.invalid` with a message
/// the app can show as is, never as a silent search.
public enum UserCommand: Sendable, Equatable {
    case search(String)
    case nextPage
    case open(Int)
    case cancel
    case recent
    case layout(Layout)
    case stats
    case help
    case quit
    case retry
    /// `/provider NAME` switches service; without a name, says which is in use.
    case provider(String?)
    /// `/filter` (show), `/filter clear`, `/filter license:cc0 …` (add).
    case filter(String?)
    /// `/live on|off` turns results while typing on or off; `/live` says which.
    case live(Bool?)
    /// `/user NAME`: a person's photos (NAME: username, alias, id or link).
    case user(String)
    /// `/albums [NAME]`: a person's albums (without a name: the person shown).
    case albums(String?)
    /// `/album N|ID|URL`: an album of the last list, by id, or by link.
    case album(String)
    /// `/me`: your photostream, signed in, non-public photos included.
    case me
    /// `/login`: sign in; the next line typed is the code the sign-in page shows.
    case login
    /// `/faves [NAME]`: a person's favourites (without a name: yours).
    case faves(String?)
    /// `/fave N` / `/unfave N`: add result N to your favourites, or take it out.
    case fave(Int)
    case unfave(Int)
    /// A "/name" that is not a command; `suggestion` is the closest one.
    case unknown(String, suggestion: String?)
    /// A command used wrongly; the message says how to use it.
    case invalid(String)

    /// The arrangement `/layout` switches to.
    public enum Layout: String, Sendable, CaseIterable {
        case grid, list
    }

    /// Interprets one input line.
    ///
    /// A line starting with "//" searches for the text after the first slash,
    /// so a query can itself begin with "/".
    public static func parse(_ line: String) -> UserCommand {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return .nextPage }
        guard first.hasPrefix("/") else { return .search(words.joined(separator: " ")) }
        if first.hasPrefix("//") {
            return .search(([String(first.dropFirst())] + words.dropFirst()).joined(separator: " "))
        }
        let name = first.lowercased()
        let arguments = Array(words.dropFirst())
        switch name {
        case "/open":
            return parseOpen(arguments)
        case "/layout":
            return parseLayout(arguments)
        case "/cancel": return noArguments(.cancel, name, arguments)
        case "/recent": return noArguments(.recent, name, arguments)
        case "/stats": return noArguments(.stats, name, arguments)
        case "/help", "/?": return noArguments(.help, name, arguments)
        case "/quit", "/exit": return noArguments(.quit, name, arguments)
        case "/retry": return noArguments(.retry, name, arguments)
        case "/provider":
            guard arguments.count <= 1 else { return .invalid("Use /provider NAME, one word: /help lists the services.") }
            return .provider(arguments.first)
        case "/filter":
            return .filter(arguments.isEmpty ? nil : arguments.joined(separator: " "))
        case "/live":
            switch arguments.map({ $0.lowercased() }) {
            case []: return .live(nil)
            case ["on"]: return .live(true)
            case ["off"]: return .live(false)
            default: return .invalid("Use /live on or /live off.")
            }
        case "/user":
            guard arguments.count == 1 else { return .invalid("Use /user NAME: a username, path alias, id or profile link.") }
            return .user(arguments[0])
        case "/albums":
            guard arguments.count <= 1 else { return .invalid("Use /albums NAME: a username, path alias, id or profile link.") }
            return .albums(arguments.first)
        case "/album":
            guard arguments.count == 1 else { return .invalid("Use /album N (from /albums), /album ID or /album LINK.") }
            return .album(arguments[0])
        case "/me": return noArguments(.me, name, arguments)
        case "/login": return noArguments(.login, name, arguments)
        case "/faves":
            guard arguments.count <= 1 else { return .invalid("Use /faves NAME: a username, path alias, id or profile link (none: yours).") }
            return .faves(arguments.first)
        case "/fave", "/unfave":
            switch parseOpen(arguments, command: name) {
            case .open(let number): return name == "/fave" ? .fave(number) : .unfave(number)
            case let other: return other
            }
        case "/":
            return .invalid("Type a command after \"/\" (for example /help), or just text to search.")
        default:
            return .unknown(first, suggestion: suggestion(for: name))
        }
    }

    /// Lines Tab completes at the prompt, besides `/provider NAME`.
    public static let completions = [
        "/open ", "/cancel", "/recent", "/layout grid", "/layout list",
        "/stats", "/help", "/quit", "/retry", "/filter ", "/filter clear", "/live on", "/live off",
        "/user ", "/albums ", "/album ", "/me", "/login", "/faves", "/fave ", "/unfave ",
    ]

    /// Lines Tab completes, `/provider` with each service the app can search.
    public static func completions(providers: [String]) -> [String] {
        completions + providers.map { "/provider \($0)" }
    }

    /// The commands with a one-line meaning each, for `/help`; `/provider`
    /// names the services the app can search.
    static func summaries(providers: [String]) -> [(usage: String, meaning: String)] {
        summaries.map { summary in
            guard summary.usage == "/provider NAME", !providers.isEmpty else { return summary }
            return (summary.usage, "search \(providers.joined(separator: ", ")) (repeats the query)")
        }
    }

    static let summaries: [(usage: String, meaning: String)] = [
        ("text + Enter", "search for photos"),
        ("Enter", "load the next page"),
        ("/open N", "show photo N large"),
        ("/cancel", "cancel pending downloads (also Ctrl-C)"),
        ("/retry", "retry failed downloads"),
        ("/recent", "show recent photos"),
        ("/layout grid|list", "switch between thumbnails grid and list"),
        ("/provider NAME", "search another service (repeats the query)"),
        ("/filter [F…|clear]", "show, add (license:cc0 sort:newest …) or clear filters"),
        ("/live on|off", "results while typing, after a pause (on by default)"),
        ("/user NAME", "a person's photos, newest first (or paste their profile link)"),
        ("/albums [NAME]", "a person's albums; /album N opens one"),
        ("/album N|ID|LINK", "an album's photos (or paste its link)"),
        ("/login", "sign in (Flickr): then calls are made as you"),
        ("/me", "your photos, non-public ones included (signed in)"),
        ("/faves [NAME]", "a person's favourites, or yours"),
        ("/fave N, /unfave N", "add photo N to your favourites, or take it out"),
        ("/stats", "download and cache statistics"),
        ("/help", "this list"),
        ("/quit", "leave (also Ctrl-D)"),
    ]

    /// Command names that `unknown` suggestions are drawn from.
    static let names = [
        "/open", "/cancel", "/recent", "/layout", "/stats", "/help", "/quit", "/retry", "/provider", "/filter", "/live",
        "/user", "/albums", "/album", "/me", "/login", "/faves", "/fave", "/unfave",
    ]

    // MARK: - Parsing helpers

    /// `/open N` (and `/fave N`, `/unfave N`, as `command`): `.open(N)` or how to use it.
    private static func parseOpen(_ arguments: [String], command: String = "/open") -> UserCommand {
        guard let argument = arguments.first else {
            return .invalid("\(command) needs a result number, for example \(command) 3.")
        }
        guard arguments.count == 1 else {
            return .invalid("\(command) takes one result number, for example \(command) 3.")
        }
        let digits = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
        guard let number = Int(digits), number >= 1 else {
            return .invalid("\"\(TextSanitizer.fit(TextSanitizer.sanitize(argument), columns: 20))\" is not a result number; use \(command) N with N from 1, for example \(command) 3.")
        }
        return .open(number)
    }

    private static func parseLayout(_ arguments: [String]) -> UserCommand {
        guard arguments.count == 1, let layout = Layout(rawValue: arguments[0].lowercased()) else {
            return .invalid("Use /layout grid or /layout list.")
        }
        return .layout(layout)
    }

    private static func noArguments(_ command: UserCommand, _ name: String, _ arguments: [String]) -> UserCommand {
        arguments.isEmpty ? command : .invalid("\(name) takes no arguments.")
    }

    /// The command the person most likely meant: one the typed name starts,
    /// else the nearest by edit distance (at most 2 edits).
    static func suggestion(for name: String) -> String? {
        guard name.count > 1 else { return nil }
        if let prefixed = names.first(where: { $0.hasPrefix(name) }) { return prefixed }
        let scored = names.map { (name: $0, distance: editDistance(name, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
