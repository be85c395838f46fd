import Testing
@testable import TerminalUI

/// What each kind of typed line means.
@Suite struct UserCommandTests {
    @Test(arguments: ["", "   ", "\t"])
    func emptyLineLoadsTheNextPage(line: String) {
        #expect(UserCommand.parse(line) == .nextPage)
    }

    @Test func plainTextIsASearch() {
        #expect(UserCommand.parse("kittens") == .search("kittens"))
    }

    @Test func multiWordSearchIsTrimmedAndKeepsItsWords() {
        #expect(UserCommand.parse("  red   car \t") == .search("red car"))
        #expect(UserCommand.parse("mountain lake -night") == .search("mountain lake -night"))
    }

    @Test func searchKeepsUnicodeText() {
        #expect(UserCommand.parse("猫 café") == .search("猫 café"))
    }

    @Test func browsingCommandsTakeANameAnIdOrALink() {
        #expect(UserCommand.parse("/user anasouza") == .user("anasouza"))
        #expect(UserCommand.parse("/user https://www.flickr.com/photos/anasouza/") == .user("https://www.flickr.com/photos/anasouza/"))
        #expect(UserCommand.parse("/albums") == .albums(nil))
        #expect(UserCommand.parse("/albums 12345678@N00") == .albums("12345678@N00"))
        #expect(UserCommand.parse("/album 3") == .album("3"))
        #expect(UserCommand.parse("/ALBUM 72157600000000001") == .album("72157600000000001"))
        for line in ["/user", "/user ana souza", "/albums a b", "/album", "/album 1 2"] {
            guard case .invalid(let message) = UserCommand.parse(line) else {
                Issue.record("\(line) parsed as \(UserCommand.parse(line))")
                continue
            }
            #expect(message.hasPrefix("Use /"), "\(line): \(message)")
        }
        #expect(UserCommand.parse("/albm 2") == .unknown("/albm", suggestion: "/album"))
    }

    @Test func aPastedLinkIsTextForTheViewModelToRead() {
        // The provider decides what a link is; the parser only passes it on.
        #expect(UserCommand.parse("https://flic.kr/p/2oTLzNM") == .search("https://flic.kr/p/2oTLzNM"))
    }

    @Test func doubleSlashSearchesForTextStartingWithASlash() {
        #expect(UserCommand.parse("//open source") == .search("/open source"))
    }

    @Test(arguments: [
        ("/cancel", UserCommand.cancel), ("/recent", .recent), ("/stats", .stats), ("/help", .help),
        ("/quit", .quit), ("/retry", .retry), ("/exit", .quit), ("/?", .help), ("  /quit  ", .quit),
        ("/QUIT", .quit), ("/layout grid", .layout(.grid)), ("/layout list", .layout(.list)),
        ("/layout LIST", .layout(.list)), ("/open 3", .open(3)), ("/open  12 ", .open(12)), ("/open #7", .open(7)),
    ])
    func commands(line: String, command: UserCommand) {
        #expect(UserCommand.parse(line) == command)
    }

    @Test func openWithoutANumberExplainsHowToUseIt() {
        guard case .invalid(let message) = UserCommand.parse("/open") else {
            Issue.record("expected .invalid")
            return
        }
        #expect(message.contains("/open 3"))
    }

    @Test(arguments: ["/open x", "/open 0", "/open -2", "/open 1.5", "/open 99999999999999999999999"])
    func openWithABadNumberIsInvalid(line: String) {
        guard case .invalid(let message) = UserCommand.parse(line) else {
            Issue.record("expected .invalid for \(line)")
            return
        }
        #expect(message.contains("result number"))
    }

    @Test func openWithTwoNumbersIsInvalid() {
        guard case .invalid = UserCommand.parse("/open 1 2") else {
            Issue.record("expected .invalid")
            return
        }
    }

    @Test func invalidMessageShowsHostileArgumentHarmlessly() {
        guard case .invalid(let message) = UserCommand.parse("/open \u{1B}]52;c;eA==\u{07}") else {
            Issue.record("expected .invalid")
            return
        }
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test(arguments: ["/layout", "/layout table", "/layout grid list"])
    func layoutNeedsGridOrList(line: String) {
        #expect(UserCommand.parse(line) == .invalid("Use /layout grid or /layout list."))
    }

    @Test func commandsWithoutArgumentsRefuseExtraWords() {
        #expect(UserCommand.parse("/quit now") == .invalid("/quit takes no arguments."))
    }

    @Test func bareSlashIsInvalid() {
        guard case .invalid = UserCommand.parse("/") else {
            Issue.record("expected .invalid")
            return
        }
    }

    @Test(arguments: [
        ("/opne", "/open"), ("/cancle", "/cancel"), ("/lay", "/layout"), ("/stat", "/stats"),
        ("/hlep", "/help"), ("/qiut", "/quit"), ("/recnet", "/recent"), ("/retyr", "/retry"), ("/Opne", "/open"),
    ])
    func unknownCommandSuggestsTheClosestName(line: String, suggestion: String) {
        #expect(UserCommand.parse(line) == .unknown(line, suggestion: suggestion))
    }

    @Test func unknownCommandFarFromAnyNameHasNoSuggestion() {
        #expect(UserCommand.parse("/zzzzzz") == .unknown("/zzzzzz", suggestion: nil))
    }

    @Test func completionsCoverEveryCommand() {
        let completions = UserCommand.completions(providers: ["flickr", "openverse"])
        for name in UserCommand.names {
            #expect(completions.contains { $0.hasPrefix(name) }, "\(name)")
        }
        #expect(completions.contains("/provider openverse"), "each service the app can search")
        #expect(UserCommand.completions.contains("/layout grid"))
        #expect(UserCommand.completions.contains("/layout list"))
    }

    @Test func everyCompletionParsesAsACommand() {
        // These wait for their argument after the space.
        let needArguments: Set = ["/open ", "/user ", "/album ", "/fave ", "/unfave "]
        for completion in UserCommand.completions(providers: ["shutterstock"]) where !needArguments.contains(completion) {
            switch UserCommand.parse(completion) {
            case .search, .unknown, .invalid, .nextPage:
                Issue.record("\(completion) does not parse as a command")
            default:
                break
            }
        }
    }

    @Test(arguments: [("kitten", "sitting", 3), ("", "abc", 3), ("same", "same", 0), ("/opne", "/open", 2)])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(UserCommand.editDistance(a, b) == distance)
    }
}

/// The account commands: `/me`, `/login`, `/faves [NAME]`, `/fave N`, `/unfave N`.
@Suite struct AccountCommandTests {
    @Test func accountCommandsParse() {
        #expect(UserCommand.parse("/me") == .me)
        #expect(UserCommand.parse("/login") == .login)
        #expect(UserCommand.parse("/faves") == .faves(nil))
        #expect(UserCommand.parse("/faves anasouza") == .faves("anasouza"))
        #expect(UserCommand.parse("/fave 3") == .fave(3))
        #expect(UserCommand.parse("/unfave #12") == .unfave(12))
    }

    @Test func misusedAccountCommandsSayHow() {
        #expect(UserCommand.parse("/fave") == .invalid("/fave needs a result number, for example /fave 3."))
        guard case .invalid(let text) = UserCommand.parse("/unfave x") else {
            Issue.record("expected .invalid")
            return
        }
        #expect(text.contains("/unfave N"))
        #expect(UserCommand.parse("/me now") == .invalid("/me takes no arguments."))
    }

    @Test func helpAndCompletionNameEveryAccountCommand() {
        let usages = UserCommand.summaries.map(\.usage).joined(separator: " ")
        for name in ["/login", "/me", "/faves", "/fave", "/unfave"] {
            #expect(usages.contains(name), "\(name)")
            #expect(UserCommand.completions.contains { $0.hasPrefix(name) }, "\(name)")
        }
    }
}
