@preconcurrency import CReadline
import Dispatch
import Foundation
import Platform

/// Readline's accept-line, preceded by taking the status line off the screen.
func readlineAcceptLine(_ count: Int32, _ key: Int32) -> Int32 {
    MainActor.assumeIsolated { ReadlineBridge.active?.prepareToAccept() }
    return rl_newline(count, key)
}

/// Carries a C pointer out of `MainActor.assumeIsolated` back to readline on
/// the same (main) thread; it never crosses threads, hence unchecked.
struct CResult<Value>: @unchecked Sendable {
    let value: Value?
    init(_ value: Value?) { self.value = value }
}

/// How readline's context-free C callbacks reach the running terminal.
@MainActor
enum ReadlineBridge {
    static var active: ReadlineTerminal?

    /// Readline keeps the pointer, so it must live for the whole process.
    static let programName: UnsafePointer<CChar>? = UnsafePointer(strdup("flickr"))

    static func release(_ terminal: ReadlineTerminal) {
        if active === terminal { active = nil }
    }

    /// Gives the tty NOFLSH whenever readline prepares it (at start, and
    /// again after each accepted line): by default Ctrl-C makes the kernel
    /// discard output not yet sent to the terminal, which can cut an escape
    /// sequence in half and garble what follows. Readline puts the modes it
    /// saved back when it is done, so NOFLSH goes with them.
    ///
    /// (A custom redisplay hook was tried for fast typing-ahead, but readline
    /// then skips loading the terminal's capabilities and falls back to
    /// horizontal scrolling; its own batching of typed-ahead keys suffices.)
    static func installHooks() {
        rl_prep_term_function = { meta in
            rl_prep_terminal(meta)
            guard let stream = rl_instream else { return }
            TerminalModeGuard.keepQueuesOnSignals(fileno(stream))
        }
    }

    static func removeHooks() {
        rl_prep_term_function = rl_prep_terminal
    }

    /// A copy readline may keep for the rest of the process; one per
    /// distinct text, so starting terminals again does not pile up copies.
    static func persistentCString(_ text: String) -> UnsafePointer<CChar>? {
        if let kept = persistentCStrings[text] { return kept }
        let copy = UnsafePointer(strdup(text))
        persistentCStrings[text] = copy
        return copy
    }

    private static var persistentCStrings: [String: UnsafePointer<CChar>?] = [:]

    /// Readline decides at its first initialisation whether input is UTF-8;
    /// in the "C" locale it would echo "é" as octal escapes. Use the
    /// environment's locale if it is UTF-8, else C.UTF-8.
    static func useUTF8Locale() {
        if let name = setlocale(LC_CTYPE, ""), isUTF8(String(cString: name)) { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    private static func isUTF8(_ locale: String) -> Bool {
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}

/// Puts the tty back at process exit if the app exits without calling
/// `stop()`: readline leaves it in non-canonical, no-echo mode with bracketed
/// paste switched on.
enum TerminalModeGuard {
    private struct Saved {
        var input: Int32
        var output: Int32
        var modes: termios
    }

    /// Written on the main thread around readline's use of the tty; read by
    /// the exit handler, which runs on the exiting thread once the app is done.
    nonisolated(unsafe) private static var saved: Saved?
    nonisolated(unsafe) private static var registered = false

    static func save(input: Int32, output: Int32) {
        var modes = termios()
        guard tcgetattr(input, &modes) == 0 else { return }
        saved = Saved(input: input, output: output, modes: modes)
        if !registered {
            registered = true
            atexit { TerminalModeGuard.restore(leavingBracketedPaste: true) }
        }
    }

    /// Sets NOFLSH: Ctrl-C, Ctrl-\\ and Ctrl-Z no longer make the kernel drop
    /// queued output (a half-sent escape sequence) or typed-ahead input.
    static func keepQueuesOnSignals(_ descriptor: Int32) {
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0, modes.c_lflag & tcflag_t(NOFLSH) == 0 else { return }
        modes.c_lflag |= tcflag_t(NOFLSH)
        _ = tcsetattr(descriptor, TCSANOW, &modes)
    }

    /// Re-applies the saved modes (once). At exit it also switches bracketed
    /// paste off, which `rl_callback_handler_remove` does on a normal stop.
    static func restore(leavingBracketedPaste: Bool = false) {
        guard var state = saved else { return }
        saved = nil
        if leavingBracketedPaste {
            let sequence: [UInt8] = Array("\u{1B}[?2004l".utf8)
            _ = sequence.withUnsafeBytes { write(state.output, $0.baseAddress, $0.count) }
        }
        _ = tcsetattr(state.input, TCSANOW, &state.modes)
    }
}
