import Foundation
import Testing
@testable import TerminalUI

/// How output reaches the terminal's descriptor, counted in writes: a
/// sequenced-packet socket keeps each write a message of its own.
@Suite struct TerminalOutputTests {
    /// Every message waiting on `descriptor`, in order.
    static func messages(on descriptor: Int32) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return found }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return found }
            found.append(Array(buffer[0..<count]))
        }
    }

    /// kitty 0.26 dropped images that arrived in many small writes.
    @Test func aLargeFrameLeavesInOneWriteAfterWhatWasBuffered() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        var size = Int32(1 << 20)
        setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(pair[1], SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let output = try #require(TerminalOutput(fileDescriptor: pair[0]))
        let frame = "\u{1B}_Ga=t,i=1;" + String(repeating: "QUJD", count: 16_000) + "\u{1B}\\"
        output.write("status\r\n")
        output.write(frame)
        output.write("prompt> ")
        output.flush()
        let messages = Self.messages(on: pair[1])
        #expect(messages.map { String(decoding: $0, as: UTF8.self) } == ["status\r\n", frame, "prompt> "])
        output.close()
    }
}
