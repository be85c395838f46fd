@preconcurrency import CReadline
import Dispatch
import Foundation
import Platform

/// History across launches and Tab completion.
extension ReadlineTerminal {
    // MARK: - History

    func loadHistory() {
        clear_history()
        stifle_history(Int32(clamping: historyLimit))
        lastHistoryLine = nil
        sessionHistory = []
        guard let file = historyStore else { return }
        let entries = file.load()
        for entry in entries.suffix(historyLimit) { add_history(entry) }
        lastHistoryLine = entries.last
        // Say at once, not only at exit, that this session's lines will be lost.
        if let problem = file.writeProblem() { reportHistoryFailure(problem) }
    }

    /// Adds a typed line (trailing blanks, e.g. left by completion, removed)
    /// unless it is blank, repeats the previous entry, or the filter refuses it.
    func recordHistory(_ typed: String) {
        var line = Substring(typed)
        while line.last?.isWhitespace == true { line.removeLast() }
        let entry = String(line)
        guard !entry.allSatisfy(\.isWhitespace), entry != lastHistoryLine else { return }
        if let historyFilter, !historyFilter(typed) { return }
        add_history(entry)
        lastHistoryLine = entry
        sessionHistory.append(entry)
    }

    /// Merges this session's lines into the file (another instance may have
    /// saved since we loaded it).
    func saveHistory() {
        guard let file = historyStore, !sessionHistory.isEmpty else { return }
        do throws(HistoryFile.SaveError) {
            try file.save(adding: sessionHistory)
            sessionHistory = []
        } catch {
            reportHistoryFailure(error)
        }
    }

    var historyStore: HistoryFile? {
        historyFile.map { HistoryFile(url: $0, limit: historyLimit) }
    }

    /// Once per terminal, on its own line above the prompt (or where the
    /// cursor is once the prompt is gone).
    func reportHistoryFailure(_ error: HistoryFile.SaveError) {
        guard !historyFailureReported, let output else { return }
        historyFailureReported = true
        output.write("warning: \(TextSanitizer.sanitize(error.description, maximumLength: 1000))\r\n")
        output.flush()
    }

    // MARK: - Completion

    /// Completes whole command lines (the text before the cursor must be a
    /// prefix of a completion; readline gets the part from the current word
    /// on), else the word at the cursor from `wordCompletions`.
    func complete(
        text: UnsafePointer<CChar>?, start: Int32, end: Int32
    ) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
        guard let buffer = rl_line_buffer, start >= 0, end >= start else { return nil }
        let typed = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                              count: Int(end)))
        pendingMatches = completions.compactMap { candidate in
            let bytes = Array(candidate.utf8)
            guard bytes.count >= typed.count, bytes.starts(with: typed) else { return nil }
            return String(decoding: bytes[Int(start)...], as: UTF8.self)
        }
        if pendingMatches.isEmpty {
            let word = typed[Int(start)...]
            pendingMatches = wordCompletions.filter { candidate in
                let bytes = Array(candidate.utf8)
                return bytes.count >= word.count && bytes.starts(with: word)
            }
        }
        nextMatch = 0
        guard let text, !pendingMatches.isEmpty else { return nil }
        return rl_completion_matches(text) { _, state in
            MainActor.assumeIsolated {
                CResult(ReadlineBridge.active?.nextCompletion(restart: state == 0))
            }.value
        }
    }

    /// Lists several matches on one line above the status and prompt, so the
    /// status stays just above the prompt (readline's own listing would push
    /// the prompt below it).
    func displayMatches(_ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int) {
        guard let matches, count > 0, phase == .reading, let output else { return }
        let names = (1...count).compactMap { index in matches[index].map { TextSanitizer.sanitize(String(cString: $0)) } }
        hidePrompt()
        output.write(names.joined(separator: "  ") + "\r\n")
        showPrompt()
        output.flush()
    }

    func nextCompletion(restart: Bool) -> UnsafeMutablePointer<CChar>? {
        if restart { nextMatch = 0 }
        guard nextMatch < pendingMatches.count else { return nil }
        defer { nextMatch += 1 }
        return strdup(pendingMatches[nextMatch])
    }
}
