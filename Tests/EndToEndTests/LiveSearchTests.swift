import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Results while typing, in the real binary in a pty against the
    /// sandbox: the live line under the prompt, the requests a pause sends,
    /// and Enter reusing what was found.
    @Suite("Live search")
    struct LiveSearch {
        private static let up = "\u{1B}[A"
        private static let left = "\u{1B}[D"
        private static let backspace = "\u{7F}"
        private static let controlU = "\u{15}"
        private static let controlE = "\u{05}"

        @Test func pauseSearchesOnceAndEnterShowsThatPageWithNoRequest() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "grid", "--images", "symbols"], live: true)
                try await process.waitForFirstListing()
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                let first = sandbox.catalog.photo(at: expected[0]).title

                try await process.type("kittens")
                let liveText = "≈ \(expected.count.formatted()) · \(first)"
                try await process.waitFor("the live line \(liveText.debugDescription) under the prompt") { _, screen in
                    liveLine(screen).hasPrefix(liveText) && promptLine(screen).hasSuffix("kittens")
                }
                // The first row's thumbnails load before Enter.
                let firstRow = expected.prefix(3).map { sandbox.catalog.photo(at: $0).id }
                try await sandbox.waitForLog("the first row's thumbnails requested before Enter") { log in
                    firstRow.allSatisfy { id in log.contains { $0.kind == "image" && $0.path.contains(id) } }
                }
                // The same text again (a space typed and taken back) asks nothing.
                try process.write(" " + Self.backspace)
                try await Task.sleep(for: .milliseconds(700))
                let before = try await searches(sandbox, text: "kittens")
                #expect(before.count == 1, "searches for kittens before Enter: \(before.map(\.path))")
                let mark = process.mark()
                try process.write("\r")
                let header = try await process.waitForHeader(page: 1, total: expected.count, after: mark)
                try await process.waitFor("result 1 labelled after the header") { _, screen in
                    screenShowsLabel(screen, number: 1, title: first, below: header)
                }
                try await process.waitFor("the live line erased") { _, screen in
                    !screen.text.contains(liveText)
                }
                // Page 2 may be fetched ahead now; page 1 is not asked again.
                let after = try await searches(sandbox, text: "kittens").filter { isPage($0, 1) }
                #expect(after.count == 1, "searches for page 1 of kittens: \(describeSearches(after))")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func aChangeAbortsTheSearchInFlightAndEnterStillWorksOnASlowServer() async throws {
            // Answers trickle out (a search's JSON takes seconds), so an
            // abort lands mid-body, where the sandbox can see it. 1 KiB/s,
            // the slowest there is: a page's ~5 KB takes ~5 s.
            try await SandboxHarness.with(sandboxConfiguration(throttleKBps: 1)) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list"], live: true)
                try await process.waitForFirstListing()

                try await process.type("kittens")
                try await process.waitFor("the live line saying searching…") { _, screen in
                    liveLine(screen) == "searching…"
                }
                try await sandbox.waitForLog("the search for kittens reaching the server") { log in
                    log.contains { isSearch($0, text: "kittens") }
                }
                // A keystroke that changes the text aborts it.
                try await process.type(" snow")
                try await sandbox.waitForLog("the kittens search ended aborted, and one for \"kittens snow\"", describe: describeSearches) { log in
                    log.contains { isSearch($0, text: "kittens") && $0.aborted }
                        && log.contains { isSearch($0, text: "kittens snow") }
                }
                // Enter while the live search is still out: a normal search.
                let mark = process.mark()
                try process.write("\r")
                let expected = sandbox.catalog.search(text: "kittens snow", sort: .relevance)
                try await process.waitForHeader(page: 1, total: expected.count, after: mark)
                try await process.waitFor("the live line gone") { _, screen in
                    !screen.text.contains("searching…")
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func enterOnTheTextOfTheLiveSearchInFlightJoinsItInsteadOfAskingAgain() async throws {
            // Every answer waits 3 s, so the live search is surely still out
            // when Enter comes: the test waits until the sandbox has it.
            try await SandboxHarness.with(sandboxConfiguration(latency: .seconds(3))) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list"], live: true)
                try await process.waitForFirstListing()

                try await process.type("kittens")
                try await sandbox.waitForLog("the live search for kittens on its way", describe: describeSearches) { log in
                    log.contains { isSearch($0, text: "kittens") && $0.endedAt == nil }
                }
                let mark = process.mark()
                try process.write("\r")
                let expected = sandbox.catalog.search(text: "kittens", sort: .relevance)
                try await process.waitForHeader(page: 1, total: expected.count, after: mark)
                // Page 2 may be fetched ahead now; page 1 was asked once.
                let firstPages = try await searches(sandbox, text: "kittens").filter { isPage($0, 1) }
                #expect(firstPages.count == 1, "searches for page 1 of kittens: \(describeSearches(firstPages))")
                #expect(firstPages.allSatisfy { !$0.aborted }, "\(describeSearches(firstPages))")
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func editingKeysRedrawTheLiveLineAndLeaveTheCursorInTheLine() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--live-delay", "150"], live: true)
                try await process.waitForFirstListing()
                let mark = process.mark()
                try await process.enter("beach")
                try await process.waitForHeader(page: 1, after: mark)

                // Insert in the middle: "kitens" → "kittens".
                try await process.type("kitens")
                try process.write(Self.left + Self.left + Self.left + "t")
                let kittens = sandbox.catalog.search(text: "kittens", sort: .relevance)
                try await process.waitFor("the live line for kittens, the cursor after \"kitt\"") { _, screen in
                    liveLine(screen).hasPrefix("≈ \(kittens.count.formatted()) ·")
                        && promptLine(screen).hasSuffix("kittens")
                        && screen.cursor.column == "flickr> kitt".count
                }
                // Backspace to under two characters: the line goes.
                try process.write(Self.controlE + String(repeating: Self.backspace, count: 6))
                try await process.waitFor("the live line gone at one character") { _, screen in
                    liveLine(screen).isEmpty && promptLine(screen).hasSuffix("> k")
                }
                // Ctrl-U clears the line and the live line with it.
                try process.write(Self.controlU)
                try await process.type("tiger")
                let tigers = sandbox.catalog.search(text: "tiger", sort: .relevance)
                try await process.waitFor("a live line for tiger") { _, screen in
                    tigers.isEmpty ? liveLine(screen) == "no results" : liveLine(screen).hasPrefix("≈ \(tigers.count.formatted())")
                }
                try process.write(Self.controlU)
                try await process.waitFor("Ctrl-U erased the live line") { _, screen in
                    liveLine(screen).isEmpty && promptLine(screen).hasSuffix(">")
                }
                // History recall searches the recalled text.
                try process.write(Self.up)
                let beach = sandbox.catalog.search(text: "beach", sort: .relevance)
                try await process.waitFor("the recalled \"beach\" with its live line") { _, screen in
                    promptLine(screen).hasSuffix("beach") && liveLine(screen).hasPrefix("≈ \(beach.count.formatted())")
                }
                // A bracketed paste is text like any other.
                try process.write(Self.controlU + "\u{1B}[200~kittens\u{1B}[201~")
                try await process.waitFor("the pasted \"kittens\" with its live line") { _, screen in
                    promptLine(screen).hasSuffix("kittens") && liveLine(screen).hasPrefix("≈ \(kittens.count.formatted())")
                }
                // Ctrl-C clears the live line (and the line being typed).
                try process.sendControlC()
                try await process.waitFor("Ctrl-C cleared the live line") { _, screen in
                    !screen.lines.contains { $0.hasPrefix("≈ ") }
                }
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func tabCompletionAndReverseSearchWorkWithLiveSearchOn() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--images", "none", "--live-delay", "100"], live: true)
                try await process.waitForFirstListing()
                var mark = process.mark()
                try await process.enter("kittens")
                try await process.waitForHeader(page: 1, after: mark)

                // Tab completes a command; a command is never searched.
                try await process.type("/liv")
                try process.write("\t")
                try await process.waitFor("Tab completing /live o") { _, screen in
                    promptLine(screen).hasSuffix("/live o")
                }
                try process.write(Self.controlU)

                // Ctrl-R finds the earlier query; Enter runs it.
                try process.write("\u{12}kitt")
                try await process.waitFor("reverse search showing kittens") { _, screen in
                    screen.lines[screen.cursor.row].contains("kittens")
                }
                mark = process.mark()
                try process.write("\r")
                try await process.waitForHeader(page: 1, after: mark)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func aFailedSearchSaysSoOnTheLiveLine() async throws {
            var configuration = sandboxConfiguration()
            configuration.faults.rate = 1
            configuration.faults.scope = .rest
            configuration.faults.kind = .apiError
            try await SandboxHarness.with(configuration) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list"], live: true)
                try await process.waitFor("the prompt") { _, screen in promptLine(screen).hasPrefix("flickr>") }
                try await process.type("kittens")
                try await process.waitFor("the live line saying the search failed") { _, screen in
                    liveLine(screen).hasPrefix("search failed:")
                }
                // Typing goes on undisturbed.
                try await process.type(" snow")
                #expect(promptLine(process.screen).hasSuffix("kittens snow"))
                try process.write(Self.controlU)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func liveOffSearchesNothingUntilEnterAndOnAgainDoes() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--live-delay", "100"], live: true)
                try await process.waitForFirstListing()
                try await process.enter("/live off")
                try await process.waitFor(screenContains: "off")
                try await process.type("kittens")
                // Ten times the pause: a live search would have gone out.
                try await Task.sleep(for: .seconds(1))
                #expect(try await searches(sandbox, text: "kittens").isEmpty)
                #expect(liveLine(process.screen).isEmpty)
                try process.write(Self.controlU)
                try await process.enter("/live on")
                try await process.type("kittens")
                try await process.waitFor("a live line once live search is on again") { _, screen in
                    liveLine(screen).hasPrefix("≈ ")
                }
                #expect(try await searches(sandbox, text: "kittens").count == 1)
                try process.write(Self.controlU)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func commandsAndOneCharacterAreNotSearched() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch(["--layout", "list", "--live-delay", "100"], live: true)
                try await process.waitForFirstListing()
                try await process.type("/recent")
                try await Task.sleep(for: .seconds(1))
                try process.write(Self.controlU)
                try await process.type("k")
                try await Task.sleep(for: .seconds(1))
                let sent = try await sandbox.requestLog().filter { $0.path.contains("method=flickr.photos.search") }
                #expect(sent.isEmpty, "searches while typing a command or one letter: \(describeSearches(sent))")
                #expect(liveLine(process.screen).isEmpty)
                try process.write(Self.controlU)
                #expect(try await process.quit() == .exited(0))
            }
        }
    }
}

/// The line under the cursor's (where the live line is drawn), trimmed.
private func liveLine(_ screen: TerminalScreen) -> String {
    let row = screen.cursor.row + 1
    guard row < screen.lines.count else { return "" }
    return screen.lines[row].trimmingCharacters(in: .whitespaces)
}

/// The line being edited, trimmed at the end.
private func promptLine(_ screen: TerminalScreen) -> String {
    let line = screen.lines[screen.cursor.row]
    return String(line.reversed().drop(while: { $0 == " " }).reversed())
}

/// Whether `record` is a Flickr search for exactly `text`.
private func isSearch(_ record: SandboxRequestRecord, text: String) -> Bool {
    guard record.kind == "rest", let items = URLComponents(string: record.path)?.queryItems else { return false }
    return items.contains { $0.name == "method" && $0.value == "flickr.photos.search" }
        && items.contains { $0.name == "text" && $0.value == text }
}

private func isPage(_ record: SandboxRequestRecord, _ page: Int) -> Bool {
    URLComponents(string: record.path)?.queryItems?.contains { $0.name == "page" && $0.value == String(page) } ?? false
}

private func searches(_ sandbox: SandboxHarness, text: String) async throws -> [SandboxRequestRecord] {
    try await sandbox.requestLog().filter { isSearch($0, text: text) }
}

private func describeSearches(_ log: [SandboxRequestRecord]) -> String {
    log.filter { $0.kind == "rest" }.map { "\($0.path) aborted=\($0.aborted) ended=\($0.endedAt != nil)" }.joined(separator: "\n")
}
