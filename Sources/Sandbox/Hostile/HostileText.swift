/// The strings of the text cases, and the links of the link cases. Public,
/// so tests and the fuzz corpus use exactly what the sandbox serves.
extension HostileCase {
    /// What a text case puts in a field, around the field's own text (so a
    /// person still sees which photo it is). Empty for other kinds.
    public var samples: [String] {
        switch self {
        case .c0Controls:
            ["bell\u{07}\u{07} back\u{08}\u{08}space", "nul\u{00}byte", "vt\u{0B}ff\u{0C}so\u{0E}si\u{0F}",
             "line one\nline two\r\nline three\rover", "del\u{7F}ete", "tab\there"]
        case .escapeSequences:
            ["\u{1B}[2J\u{1B}[Hcleared", "\u{1B}]52;c;aGFja2Vk\u{07}clipboard", "\u{1B}]0;window title\u{07}title",
             "\u{1B}]8;;https://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\", "\u{1B}[31mred\u{1B}[0m",
             "\u{1B}P1$r0m\u{1B}\\dcs", "\u{1B}[?1049halternate", "\u{1B}7\u{1B}[1;1Hsaved\u{1B}8", "bare escape\u{1B}"]
        case .c1Controls:
            ["\u{9B}2Jcsi", "\u{9D}52;c;aGFja2Vk\u{9C}osc", "next\u{85}line", "\u{90}1$r\u{9C}dcs", "\u{9B}31mred"]
        case .bidiOverrides:
            ["photo\u{202E}gpj.exe", "\u{202D}override\u{202C} and \u{202B}embed\u{202C}", "\u{2066}isolate\u{2069}\u{2067}rtl\u{2069}",
             "\u{2068}first\u{2069} \u{200F}mark\u{200E}", "\u{061C}arabic mark"]
        case .zeroWidth:
            ["zero\u{200B}width", "join\u{200D}er\u{200C}", "word\u{2060}joiner", "\u{FEFF}bom", "soft\u{00AD}hyphen",
             "graph\u{034F}eme"]
        case .tagCharacters:
            ["tags\u{E0001}\u{E0068}\u{E0069}\u{E0064}\u{E0064}\u{E0065}\u{E006E}\u{E007F}", "flag \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"]
        case .nonCharacters:
            // Swift's literals refuse non-characters; built from their values.
            ["non\(Self.scalar(0xFFFE))char", "non\(Self.scalar(0xFFFF))char", "\(Self.scalar(0xFDD0))fdd0",
             "plane\(Self.scalar(0x1FFFE))one", "last\(Self.scalar(0x10FFFF))"]
        case .markdownHTML:
            ["[click](javascript:alert(1)) <img src=x onerror=alert(1)>", "<script>alert(1)</script>",
             "![x](http://evil.example/t.png)", "# heading *bold* _it_ | cell | <!-- comment -->",
             "[o](javascript:x) &lt;b&gt; &amp;", "<a href=\"javascript:alert(1)\">link</a>"]
        case .backticks:
            ["``` fence", "`code` span", "``double`` ` single", "~~~ tilde", "back\\`slash"]
        case .longFields:
            [String(repeating: "long field ", count: 909) + "end", String(repeating: "🐱", count: 10_000),
             String(repeating: "e\u{301}", count: 5_000)]
        case .emptyFields:
            ["", " ", "\n", "\u{3000}"]
        case .pathCharacters:
            ["../../../tmp/evil", "a/b\\c", ".hidden", "CON", "name:with*wild?chars|", "trailing dot.", "-rf"]
        case .errorMessage:
            ["\u{1B}]52;c;aGFja2Vk\u{07}Service \u{202E}unavailable [retry](javascript:alert(1))"]
        default:
            []
        }
    }

    private static func scalar(_ value: UInt32) -> String { Unicode.Scalar(value).map { String(Character($0)) } ?? "" }

    /// A hostile value for a field whose own text is `original`; `salt`
    /// picks among the samples, so neighbouring photos differ.
    func text(_ original: String, salt: Int) -> String {
        let options = samples
        guard !options.isEmpty else { return original }
        let sample = options[abs(salt % options.count)]
        switch self {
        case .longFields, .emptyFields: return sample
        case .pathCharacters: return salt % 2 == 0 ? sample : sample + original
        default: return salt % 2 == 0 ? sample + " " + original : original + " " + sample
        }
    }

    /// A link that names the photo page of `owner`/`id` but leads elsewhere
    /// (for the link cases); nil for other kinds.
    public func photoLink(owner: String, id: String, salt: Int = 0) -> String? {
        let path = "/photos/\(owner)/\(id)/"
        let options: [String]
        switch self {
        case .userinfoLinks:
            options = ["https://www.flickr.com:443@evil.example\(path)", "https://www.flickr.com@evil.example\(path)",
                       "https://user:pass@www.flickr.com.evil.example\(path)"]
        case .lookalikeHosts:
            options = ["https://flickr.com.evil.example\(path)", "https://www.flickr.com.evil.example\(path)",
                       "https://wwwflickr.com\(path)", "https://www.fIickr.com\(path)", "https://www.flickr.co\(path)",
                       "https://www.xn--flckr-jua.com\(path)"]
        case .unsafeSchemes:
            options = ["javascript:alert(1)//www.flickr.com\(path)", "data:text/html,<script>alert(1)</script>",
                       "file:///etc/passwd"]
        default:
            return nil
        }
        return options[abs(salt % options.count)]
    }

    /// A link to `path` on a host that only looks like `host` (a service's
    /// own, such as `commons.wikimedia.org`), under a link case; nil for
    /// other cases.
    func lookalikeLink(host: String, path: String, salt: Int = 0) -> String? {
        var undotted = host
        if let dot = undotted.firstIndex(of: ".") { undotted.remove(at: dot) }
        let options: [String]
        switch self {
        case .userinfoLinks:
            options = ["https://\(host):443@evil.example\(path)", "https://\(host)@evil.example\(path)",
                       "https://user:pass@\(host).evil.example\(path)"]
        case .lookalikeHosts:
            options = ["https://\(host).evil.example\(path)", "https://\(host).\(path)", "https://\(undotted)\(path)",
                       "https://\(String(host.map { $0 == "i" ? "I" : $0 }))\(path)"]
        case .unsafeSchemes:
            options = ["javascript:alert(1)//\(host)\(path)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd"]
        default:
            return nil
        }
        return options[abs(salt % options.count)]
    }

    /// Links a person might paste that look like a Flickr person's or album's
    /// but are not (the same hosts as `photoLink`).
    public static let pastedLinks = [
        "https://www.flickr.com:443@evil.example/photos/anasouza/",
        "https://www.flickr.com@evil.example/photos/anasouza/albums/72157600000000000/",
        "https://flickr.com.evil.example/photos/anasouza/",
        "https://www.flickr.com.evil.example/photos/anasouza/albums/72157600000000000",
        "https://wwwflickr.com/photos/anasouza/",
        "javascript:alert(1)//www.flickr.com/photos/anasouza/",
    ]
}
