@preconcurrency import CReadline
import Dispatch
import Foundation
import Platform

/// Input: the read source on stdin, accepted lines, end of input, and signals.
extension ReadlineTerminal {
    // MARK: - Input

    func openInput() -> UnsafeMutablePointer<FILE>? {
        if inputDescriptor == STDIN_FILENO { return stdin }
        let copy = dup(inputDescriptor)
        guard copy >= 0 else { return nil }
        guard let stream = fdopen(copy, "r") else {
            close(copy)
            return nil
        }
        return stream
    }

    func watchInput() {
        let source = DispatchSource.makeReadSource(fileDescriptor: inputDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.phase == .reading, let input = self.promptInput else { return }
                if !input.fill(from: self.inputDescriptor) {
                    // The end of input (or an error): readline reads it itself.
                    self.eraseLiveLine()
                    rl_callback_read_char()
                    return
                }
                self.readQueuedInput()
            }
        }
        readSource = source
        source.resume()
    }

    /// Hands the keys read so far to readline (a call may take just one),
    /// within a bound so that signals and output still get their turn;
    /// the rest follows on the next turn of the main queue.
    func readQueuedInput() {
        var budget = 4096
        if phase == .reading, promptInput?.hasQueued == true { eraseLiveLine() }
        while budget > 0, phase == .reading, readSource != nil, promptInput?.hasQueued == true {
            rl_callback_read_char()
            enforceLineLimit()
            budget -= 1
        }
        // The echo goes out first: what the edit sets off (a live search
        // starting, the live line redrawn) never delays it.
        output?.flush()
        // A paste is one edit: the text is reported once all of it is in.
        let stillArriving = phase == .reading && readSource != nil && promptInput?.hasQueued == true
        if !stillArriving { reportEdit() }
        drawLiveLine()
        output?.flush()
        if phase == .reading, readSource != nil, promptInput?.hasQueued == true {
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { self?.readQueuedInput() }
            }
        }
    }

    /// Enter first takes the status line off the screen, so that accepted
    /// lines do not leave stale status rows in the scrollback.
    func bindAcceptKeys() {
        for mapName in ["emacs", "vi-insert", "vi-command"] {
            guard let keymap = rl_get_keymap_by_name(mapName) else { continue }
            rl_bind_key_in_map(0x0D, readlineAcceptLine, keymap)
            rl_bind_key_in_map(0x0A, readlineAcceptLine, keymap)
        }
    }

    /// Keeps the line within `InputLine.maximumBytes`: what goes past it is
    /// cut (at a character boundary) with a bell, and Enter will refuse the
    /// line with a message. A stray 100 KB paste thus never becomes a
    /// search, never reaches history, and readline never redraws a line of
    /// 100,000 characters after every key.
    func enforceLineLimit() {
        let wasOverlong = overlongLineBytes != nil
        cutOverlongLine()
        if !wasOverlong, overlongLineBytes != nil { rl_ding() }
    }

    /// Cuts the line back to the limit, counting what was cut.
    private func cutOverlongLine() {
        guard phase == .reading, rl_end > InputLine.maximumBytes, let buffer = rl_line_buffer else { return }
        let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        var cut = InputLine.maximumBytes
        while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a UTF-8 sequence
        overlongLineBytes = (overlongLineBytes ?? cut) + Int(rl_end) - cut
        rl_delete_text(Int32(cut), rl_end)
        rl_point = min(rl_point, rl_end)
        rl_mark = min(rl_mark, rl_end)
    }

    /// Enter may come in the same read as the keys before it: they are cut
    /// and counted first, so `handleLine` knows the line went over.
    func prepareToAccept() {
        guard phase == .reading else { return }
        // The live line goes with the line it described.
        eraseLiveLine()
        liveLine = nil
        reportedLine = ""
        cutOverlongLine()
        guard statusShown else { return }
        hidePrompt()
        rl_forced_update_display()
    }

    func forgetOverlongLine() {
        overlongLineBytes = nil
    }

    func handleLine(_ pointer: UnsafeMutablePointer<CChar>?) {
        guard phase == .reading else {
            free(pointer)
            return
        }
        guard let pointer else {
            handleEndOfInput()
            return
        }
        let line = String(cString: pointer)
        free(pointer)
        if let length = overlongLineBytes ?? (line.utf8.count > InputLine.maximumBytes ? line.utf8.count : nil) {
            forgetOverlongLine()
            phase = .inLineHandler
            print(InputLine.tooLongMessage(bytes: length))
        } else {
            recordHistory(line)
            phase = .inLineHandler
            handlers.onLine(line)
            guard phase == .inLineHandler else { return }  // stop() was called
        }
        phase = .reading
        // Readline shows the prompt once this returns; the status goes above it.
        if let status, let output {
            output.write(statusLine(status) + "\r\n")
            statusShown = true
            output.flush()
        }
    }

    /// Ctrl-D on an empty line, or the terminal went away. Input stops here;
    /// the app is expected to call `stop()` from `onEOF`.
    func handleEndOfInput() {
        // Leaving raw mode with bracketed paste on, readline already moved to
        // the next row; otherwise the cursor is still after the prompt.
        let movedDown = rl_variable_value("enable-bracketed-paste").map { String(cString: $0) == "on" } ?? false
        rl_callback_handler_remove()
        readSource?.cancel()
        readSource = nil
        if let output {
            if movedDown { output.write("\u{1B}[A") }
            output.write("\r\u{1B}[K")
            if statusShown {
                output.write("\u{1B}[A\r\u{1B}[K")
                statusShown = false
            }
            output.write(visiblePrompt + "\r\n")
            output.flush()
        }
        phase = .inLineHandler
        handlers.onEOF()
        if phase == .inLineHandler { phase = .reading }
    }

    /// The prompt without readline's invisible-text markers.
    var visiblePrompt: String {
        prompt.filter { $0 != "\u{01}" && $0 != "\u{02}" }
    }

    // MARK: - Signals

    func watchSignals() {
        // A plain `kill`, a closed window or Ctrl-\ must not leave the tty in
        // raw mode nor lose history; they are taken only when nobody else in
        // the process has claimed them.
        // SIGQUIT (Ctrl-\) is always taken: the Swift runtime's backtracer
        // claims it by default and would leave the tty raw.
        let terminating = [SIGTERM, SIGHUP].filter(SignalWatcher.hasDefaultDisposition) + [SIGQUIT]
        // Ctrl-Z: only under a job-control shell (otherwise SIGTSTP is ignored).
        let suspending = [SIGTSTP].filter(SignalWatcher.hasDefaultDisposition)
        signalWatcher = SignalWatcher(
            signals: [SIGINT, SIGWINCH] + terminating + suspending, onMainActor: { [weak self] number in
            guard let self, self.phase == .reading || self.phase == .inLineHandler else { return }
            switch number {
            case SIGINT:
                guard self.phase == .reading else { return }
                self.handleInterrupt()
            case SIGWINCH:
                guard self.phase == .reading else { return }
                self.handleResize()
            case SIGTSTP:
                guard self.phase == .reading else { return }
                self.handleSuspend()
            default:
                // The app saves what it must (it stops this terminal, which
                // saves history and restores the tty); then die as the signal would.
                self.handlers.onTerminate(number)
                self.stop()
                Platform.dieBy(signal: number)
            }
        })
    }

    /// Ctrl-C: drop whatever is typed (and any search or argument in
    /// progress), redraw an empty prompt in place, then tell the app.
    func handleInterrupt() {
        eraseLiveLine()
        liveLine = nil
        reportedLine = ""
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_clear_visible_line()
        rl_replace_line("", 1)
        rl_point = 0
        rl_mark = 0
        forgetOverlongLine()
        rl_forced_update_display()
        output?.flush()
        handlers.onInterrupt()
    }

    /// Ctrl-Z: give the shell a sane tty, stop, and on `fg` take raw mode
    /// back and draw the prompt afresh (the screen may hold anything by then).
    func handleSuspend() {
        let sizeBefore = size
        hidePrompt()
        output?.flush()
        rl_deprep_terminal()
        signalWatcher?.suspendProcess()
        rl_prep_terminal(0)
        rl_reset_screen_size()
        showPrompt()
        output?.flush()
        if size != sizeBefore { handlers.onResize(size) }
    }

    func handleResize() {
        eraseLiveLine()
        rl_resize_terminal()
        if statusShown {
            hidePrompt()
            showPrompt()
        } else {
            drawLiveLine()
        }
        output?.flush()
        handlers.onResize(size)
    }
}
