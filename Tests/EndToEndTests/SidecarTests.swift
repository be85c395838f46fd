import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// `flickr download` carries the credit with every file: JSON and XMP
    /// sidecars that photo tools read back, and CREDITS.md.
    @Suite("Sidecars")
    struct Sidecars {
        @Test func aDownloadOfByResultsWritesSidecarsAndCredits() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("by", isDirectory: true)
                let result = try await app.run(["download", "kittens", "license:by", "--per-page", "12", "--size", "q", "--out", out.path])
                #expect(result.status == .exited(0), "\(result.transcript)")

                let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                let images = names.filter { [".jpg", ".png", ".gif", ".webp"].contains(where: $0.hasSuffix) }
                #expect(images.count == 12, "\(names)")
                for image in images {
                    let base = String(image[..<(image.lastIndex(of: ".") ?? image.endIndex)])
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(base + ".json"))) as? [String: Any])
                    #expect(json["provider"] as? String == "flickr" && json["file"] as? String == image)
                    let license = try #require(json["license"] as? [String: Any])
                    #expect([4, 11].contains(license["id"] as? Int ?? -1), "CC BY 2.0 or 4.0: \(license)")
                    #expect((license["url"] as? String)?.hasPrefix("https://creativecommons.org/licenses/by/") == true)
                    #expect((json["attribution"] as? String)?.contains(" is licensed under CC BY ") == true)
                    #expect(json["record"] is [String: Any], "the provider's record")
                    #expect(names.contains(base + ".xmp"))
                }

                let credits = try String(contentsOf: out.appendingPathComponent("CREDITS.md"), encoding: .utf8)
                let lines = credits.split(separator: "\n").filter { $0.hasPrefix("- ") }
                #expect(lines.count == 12)
                #expect(lines.allSatisfy { $0.contains(" is licensed under CC BY ") && $0.contains("(https://www.flickr.com/photos/") },
                        "\(credits)")
                #expect(credits.contains("## CC BY 2.0 (https://creativecommons.org/licenses/by/2.0/)")
                        || credits.contains("## CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)"))
            }
        }

        @Test(.enabled(if: Self.exiftool != nil, "exiftool is not installed (Scripts/lib/peers.sh installs libimage-exiftool-perl)"))
        func exiftoolReadsTheLicenceBack() async throws {
            let exiftool = try #require(Self.exiftool)
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("xmp", isDirectory: true)
                let result = try await app.run(["download", "sunset", "license:by", "--per-page", "3", "--size", "q", "--out", out.path])
                #expect(result.status == .exited(0), "\(result.transcript)")
                let sidecars = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".xmp") }
                #expect(sidecars.count == 3)
                for sidecar in sidecars {
                    let path = out.appendingPathComponent(sidecar).path
                    let read = try await ProcessRunner.run(exiftool, arguments: ["-j", "-XMP:all", path], environment: app.environment)
                    #expect(read.status == .exited(0), "\(read.transcript)")
                    let tags = try #require((try JSONSerialization.jsonObject(with: Data(read.standardOutput)) as? [[String: Any]])?.first)
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(
                            sidecar.replacingOccurrences(of: ".xmp", with: ".json")))) as? [String: Any])
                    let licenseURL = try #require((json["license"] as? [String: Any])?["url"] as? String)
                    #expect(tags["License"] as? String == licenseURL, "cc:license: \(tags)")
                    #expect(tags["WebStatement"] as? String == licenseURL, "xmpRights:WebStatement")
                    #expect("\(tags["Marked"] ?? "")" == "true" || "\(tags["Marked"] ?? "")" == "1", "xmpRights:Marked: \(tags["Marked"] ?? "none")")
                    #expect(tags["UsageTerms"] as? String == json["attribution"] as? String)
                    #expect(tags["AttributionURL"] as? String == json["page_url"] as? String)
                }
            }
        }

        @Test func noSidecarsWritesTheImagesAlone() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let out = app.home.url.appendingPathComponent("plain", isDirectory: true)
                let result = try await app.run(["download", "kittens", "--per-page", "4", "--size", "q", "--out", out.path, "--no-sidecars"])
                #expect(result.status == .exited(0), "\(result.transcript)")
                // Only the hidden manifest beside them, which tells a later run whose bytes each file holds.
                let all = try FileManager.default.contentsOfDirectory(atPath: out.path)
                #expect(all.contains(".flickr-manifest.json"))
                let names = all.filter { $0 != ".flickr-manifest.json" }
                #expect(names.count == 4 && names.allSatisfy { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") || $0.hasSuffix(".gif") || $0.hasSuffix(".webp") }, "\(names)")
            }
        }

        static let exiftool: String? = {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            return path.split(separator: ":").map { "\($0)/exiftool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }()
    }
}
