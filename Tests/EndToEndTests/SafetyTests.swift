import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// What reaches the terminal and the disk: never server-controlled
    /// escape sequences, never the API key.
    @Suite("Terminal and key safety")
    struct Safety {
        @Test func hostileTitlesNeverReachTheTerminalRaw() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let catalog = sandbox.catalog
                let clear = try #require(hostileQuery(in: catalog, titleContaining: "\u{1B}[2J"), "no screen-clearing title")
                let clipboard = try #require(hostileQuery(in: catalog, titleContaining: "\u{1B}]52"), "no OSC 52 title")
                let perPage = max(clear.position, clipboard.position) + 1
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--per-page", "\(perPage)"])
                try await process.waitForFirstListing()

                for (query, visibleWord) in [(clear.query, "cleared"), (clipboard.query, "clipboard")] {
                    let mark = process.mark()
                    try await process.enter(query)
                    try await process.waitForHeader(page: 1, after: mark)
                    // The title was shown (sanitised): its harmless word is on screen.
                    try await process.waitFor("the hostile title's word \(visibleWord.debugDescription) in a label") { bytes, _ in
                        String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).contains(visibleWord)
                    }
                }
                #expect(try await process.quit() == .exited(0))

                let output = process.outputBytes
                let forbidden: [(String, [UInt8])] = [
                    ("ESC[2J (clear screen)", Array("\u{1B}[2J".utf8)),
                    ("ESC]52 (clipboard write)", Array("\u{1B}]52".utf8)),
                    ("ESC]0; (window title)", Array("\u{1B}]0;".utf8)),
                    ("C1 CSI (U+009B)", Array("\u{9B}".utf8)),
                    ("RIGHT-TO-LEFT OVERRIDE", Array("\u{202E}".utf8)),
                    ("LEFT-TO-RIGHT OVERRIDE", Array("\u{202D}".utf8)),
                    ("LEFT-TO-RIGHT ISOLATE", Array("\u{2066}".utf8)),
                    ("DEL", [0x7F]),
                ]
                for (name, bytes) in forbidden {
                    #expect(output.firstRange(of: bytes) == nil, "\(name) reached the terminal\n\(process.transcript())")
                }
            }
        }

        @Test func imagesNoneWritesNoEscapeSequencesBeyondReadlines() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--images", "none"])
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                var mark = process.mark()
                try await process.enter("kittens")
                let header = try await process.waitForHeader(page: 1, total: expected.count, after: mark)
                let last = sandbox.catalog.photo(at: expected[29]).title
                try await process.waitFor("result 30") { _, screen in
                    screenShowsLabel(screen, number: 30, title: last, below: header)
                }
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, total: expected.count, after: mark)
                #expect(try await process.quit() == .exited(0))

                let unexpected = escapeSequences(in: process.outputBytes).filter { !isReadlineSequence($0) }
                #expect(unexpected.isEmpty, """
                    escape sequences beyond readline's line editing: \(Array(Set(unexpected)).sorted().prefix(20))
                    \(process.transcript())
                    """)
            }
        }

        @Test func apiKeyNeverAppearsInOutputHistoryOrCache() async throws {
            let key = "KEY" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await SandboxHarness.with(sandboxConfiguration(requiredAPIKey: key)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox, apiKey: key)
                let process = try app.launch()
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)
                mark = process.mark()
                try await process.enter("")
                try await process.waitForHeader(page: 2, after: mark)
                try await process.enter("/stats")
                #expect(try await process.quit() == .exited(0))
                let json = try await app.run(["search", "kittens", "--json"])
                #expect(json.status == .exited(0), "the key was accepted: \(json.transcript)")

                let keyBytes = Array(key.utf8)
                #expect(process.outputBytes.firstRange(of: keyBytes) == nil, "key in the terminal output")
                #expect(json.standardOutput.firstRange(of: keyBytes) == nil, "key in search --json stdout")
                #expect(json.standardError.firstRange(of: keyBytes) == nil, "key in search --json stderr")
                let files = app.home.allFiles()
                for file in files {
                    let contents = try [UInt8](Data(contentsOf: file))
                    #expect(contents.firstRange(of: keyBytes) == nil, "key written to \(file.path)")
                }
            }
        }

        @Test func rejectedKeyErrorDoesNotEchoTheKey() async throws {
            let key = "KEY" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await SandboxHarness.with(sandboxConfiguration(requiredAPIKey: "the-only-valid-key")) { sandbox in
                let app = try FlickrApp(sandbox: sandbox, apiKey: key)
                let result = try await app.run(["search", "kittens", "--json"])
                #expect((1..<128).contains(result.status.code ?? 0), "\(result.transcript)")
                #expect(result.standardOutput.isEmpty, "\(result.transcript)")
                #expect(result.errorText.contains("100"), "Flickr's error code is named: \(result.transcript)")
                #expect(result.errorText.firstRange(of: key) == nil, "key echoed: \(result.transcript)")
            }
        }
    }

    /// Mistakes and outages give one clear line, never a crash.
    @Suite("Errors")
    struct Errors {
        @Test(arguments: [
            ["--per-page", "0"],
            ["--per-page", "501"],
            ["search", "kittens", "--per-page", "0"],
            ["search", "kittens", "--per-page", "-5"],
        ])
        func badPerPageIsRejectedWithAClearMessage(_ arguments: [String]) async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run(arguments)
                #expect((1..<128).contains(result.status.code ?? 0), "exit status: \(result.transcript)")
                #expect(result.errorText.contains("per-page"), "the message names the flag: \(result.transcript)")
                #expect(result.errorText.contains("between 1 and 500"), "the message says the range: \(result.transcript)")
                #expect(!result.errorText.contains("Fatal error"), "\(result.transcript)")
                let stats = try await sandbox.stats()
                #expect(stats.restRequests == 0, "nothing is fetched with a bad flag")
            }
        }

        /// What to fetch and from where, refused in the sentence the view
        /// models and the registry word, before any request.
        @Test(arguments: [
            (["download", "--user", "ana", "--album", "72157", "--out", "unused"], "Give --user or --album, not both."),
            (["download", "kittens", "--album", "72157", "--out", "unused"], "An album is downloaded whole"),
            (["album", " "], "Name an album: its link or its id."),
            (["search", "kittens", "--provider", "nikon"], "Unknown --provider “nikon”: use flickr, shutterstock, openverse or commons."),
            (["search", "kittens", "--provider", "shutterstock", "--api-key", "k"], "--api-key is not Shutterstock's setting."),
            (["search", "kittens", "--provider", "flickr", "--api-url", "ftp://example.org/"], "--api-url must be an http or https URL"),
            (["search", "kittens", "--provider", "shutterstock", "--per-page", "501"], "--per-page must be between 1 and 500 on Shutterstock (got 501)."),
            (["search", "kittens", "--provider", "openverse", "--per-page", "50", "--api-url", "SANDBOX"],
             "Openverse at 127.0.0.1 accepts 1–20 results per page here (got --per-page 50)."),
        ] as [([String], String)])
        func aChoiceThatCannotBeServedIsOneSentenceBeforeAnyRequest(_ arguments: [String], message: String) async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let given = arguments.map { $0 == "SANDBOX" ? sandbox.baseURL.absoluteString : $0 }
                let result = try await app.run(given, withProvider: !given.contains("--provider"))
                #expect((1..<128).contains(result.status.code ?? 0), "exit status: \(result.transcript)")
                #expect(result.errorText.contains(message), "\(result.transcript)")
                #expect(!result.errorText.contains("Fatal error"), "\(result.transcript)")
                let stats = try await sandbox.stats()
                #expect(stats.restRequests == 0, "nothing is fetched: \(result.transcript)")
            }
        }

        @Test func connectionRefusedInSearchJSONIsOneLineOnStderr() async throws {
            let port = try closedLoopbackPort()
            let app = try FlickrApp(apiURL: try #require(URL(string: "http://127.0.0.1:\(port)/services/rest/")))
            let result = try await app.run(["search", "kittens", "--json"])
            #expect((1..<128).contains(result.status.code ?? 0), "\(result.transcript)")
            #expect(result.standardOutput.isEmpty, "\(result.transcript)")
            let lines = result.errorText.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(lines.count == 1, "one line: \(result.transcript)")
            #expect(result.errorText.lowercased().contains("refused"), "\(result.transcript)")
        }

        @Test func connectionRefusedInteractivelyIsReportedAndTheAppKeepsRunning() async throws {
            let port = try closedLoopbackPort()
            let app = try FlickrApp(apiURL: try #require(URL(string: "http://127.0.0.1:\(port)/services/rest/")))
            let process = try app.launch(["--images", "none"])
            // The first-launch listing fails: said once, plainly.
            try await process.waitFor(screenContains: "refused")
            let mark = process.mark()
            try await process.enter("kittens")
            try await process.waitFor("the search to fail with \"refused\"") { bytes, _ in
                String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self).lowercased().contains("refused")
            }
            #expect(process.exitStatus == nil, "the app keeps running")
            let messageLines = process.screen.lines.filter { $0.lowercased().contains("refused") }
            #expect(!messageLines.isEmpty && messageLines.allSatisfy { $0.count <= 120 }, "\(process.transcript())")
            #expect(try await process.quit() == .exited(0))
        }
    }
}

/// Readline's line editing for xterm (cursor moves, erase in line, insert
/// and delete characters, bracketed paste and meta modes, keypad modes), plus
/// "clear to end of screen" used to redraw the status line. No colours, no
/// OSC/DCS/APC strings, no absolute positioning, no full-screen clears.
func isReadlineSequence(_ sequence: String) -> Bool {
    sequence.wholeMatch(of: #/ESC\[\d*[ABCDGKP@X]/#) != nil
        || sequence.wholeMatch(of: #/ESC\[0?J/#) != nil
        || sequence.wholeMatch(of: #/ESC\[\?(2004|1034|1)[hl]/#) != nil
        || sequence == "ESC=" || sequence == "ESC>"
}

/// A query (a hostile photo's own tags) whose relevance-ordered results put
/// a photo whose title contains `marker` as early as possible.
func hostileQuery(in catalog: Catalog, titleContaining marker: String) -> (query: String, position: Int)? {
    var best: (query: String, position: Int)?
    for index in 0..<catalog.count {
        let photo = catalog.photo(at: index)
        guard photo.title.contains(marker) else { continue }
        let query = photo.tags.joined(separator: " ")
        guard let position = catalog.search(text: query, sort: .relevance).firstIndex(of: index) else { continue }
        if position < (best?.position ?? 500) { best = (query, position) }
    }
    return best
}
