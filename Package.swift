// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    // A module sees the members of only the modules it imports: the manifest is the picture.
    .enableUpcomingFeature("MemberImportVisibility"),
]
let testSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "flickr",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "flickr", targets: ["flickr"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C system libraries (Debian -dev packages; Scripts/ installs them).
        .systemLibrary(name: "CReadline", pkgConfig: "readline",
                       providers: [.apt(["libreadline-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa",
                       providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // zlib compresses kitty graphics payloads (`o=z`).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // PNG, GIF (first frame) and WebP: Openverse serves all three besides JPEG.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .target(name: "CPty"),
        .target(name: "CHeap"),
        // libpng row by row (its errors longjmp, which Swift cannot catch).
        .target(name: "CPNGRows", dependencies: ["CPNG"]),

        // Layers, bottom up.
        .target(name: "Platform", dependencies: [
            "CHeap",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        .target(name: "Binding", swiftSettings: strict),
        // The one HTTP layer: every request, retries, Retry-After, redaction.
        .target(name: "Networking", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        // The core: photos, the query value, the provider protocol and registry.
        .target(name: "PhotoCore", dependencies: [
            "Networking", "Platform",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        // One module per provider, each one folder under Sources/Providers.
        .target(name: "FlickrService", dependencies: [
            "PhotoCore", "Networking", "Platform", .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Sources/Providers/Flickr", swiftSettings: strict),
        .target(name: "ShutterstockService", dependencies: [
            "PhotoCore", "Networking", .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Providers/Shutterstock", swiftSettings: strict),
        .target(name: "OpenverseService", dependencies: [
            "PhotoCore", "Networking", .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Providers/Openverse", swiftSettings: strict),
        .target(name: "CommonsService", dependencies: [
            "PhotoCore", "Networking", .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Sources/Providers/Commons", swiftSettings: strict),
        // The registry of providers and the connector that sets them up.
        .target(name: "Services", dependencies: [
            "PhotoCore", "Networking", "Sandbox", "FlickrService", "ShutterstockService", "OpenverseService",
            "CommonsService", "Platform", "ImageCodecs", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        // Decoders for every format a provider serves (JPEG, PNG, GIF, WebP).
        .target(name: "ImageCodecs", dependencies: ["CTurboJPEG", "CPNG", "CPNGRows", "CGIF", "CWebP"], swiftSettings: strict),
        .target(name: "ImagePipeline", dependencies: [
            "Networking", "Platform", "ImageCodecs",
            .product(name: "Collections", package: "swift-collections"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        // The batch downloader of `flickr download`: files, sidecars, CREDITS.md, resume.
        .target(name: "Downloads", dependencies: [
            "PhotoCore", "ImagePipeline", "Platform",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        .target(name: "FlickrViewModels", dependencies: [
            "Binding", "PhotoCore", "ImagePipeline", "Platform", "Downloads",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        // The view: view models and bindings only, never PhotoCore or ImagePipeline.
        .target(name: "TerminalUI", dependencies: [
            "Binding", "FlickrViewModels", "Downloads", "Platform", "CReadline", "CChafa", "ImageCodecs", "CZlib",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),
        .target(name: "Sandbox", dependencies: [
            "CTurboJPEG", "CZlib", "CWebP",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], swiftSettings: strict),
        .executableTarget(name: "flickr", dependencies: [
            "Services", "PhotoCore", "ImagePipeline", "FlickrViewModels", "Downloads", "TerminalUI", "Sandbox", "Platform", "FlickrService",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: strict),

        // Render benchmark driver for Scripts/bench (not part of the product).
        .executableTarget(name: "flickr-bench", dependencies: [
            "TerminalUI", "Sandbox", "Services", "PhotoCore", "FlickrService", "Networking", "TestSupport", "ImageCodecs",
        ], swiftSettings: strict),

        // Shared test support: pty driver, sandbox launcher, terminal screen
        // model, and the test doubles (scripted image fetcher, recording terminal).
        .target(name: "TestSupport", dependencies: [
            "CPty", "Sandbox", "Services", "PhotoCore", "Networking", "ImagePipeline", "TerminalUI",
            "CTurboJPEG", "CGIF", "CWebP", "CZlib",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: strict),

        .testTarget(name: "PlatformTests", dependencies: [
            "Platform", "TestSupport", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: testSettings),
        .testTarget(name: "BindingTests", dependencies: ["Binding"], swiftSettings: testSettings),
        .testTarget(name: "PhotoCoreTests", dependencies: [
            "PhotoCore", "Networking", "Platform", "FlickrService", "ShutterstockService", "OpenverseService", "Sandbox",
            "TestSupport",
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
                    exclude: ["Recorded", "Openverse/Recorded"], swiftSettings: testSettings),
        .testTarget(name: "ImagePipelineTests", dependencies: [
            "ImagePipeline", "PhotoCore", "Networking", "Sandbox", "Services", "TestSupport", "Platform",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], swiftSettings: testSettings),
        .testTarget(name: "FlickrViewModelsTests", dependencies: [
            "FlickrViewModels", "Downloads", "PhotoCore", "FlickrService", "Networking", "ImagePipeline", "Sandbox", "TestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
                    swiftSettings: testSettings),
        .testTarget(name: "DownloadsTests", dependencies: [
            "Downloads", "PhotoCore", "FlickrService", "OpenverseService", "Networking", "ImagePipeline", "Sandbox", "TestSupport",
            "Platform", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
                    swiftSettings: testSettings),
        .testTarget(name: "TerminalUITests", dependencies: [
            "TerminalUI", "FlickrViewModels", "PhotoCore", "FlickrService", "ImagePipeline", "Networking", "Sandbox", "TestSupport",
            "Platform", "CPty", "CTurboJPEG", "CChafa", "ImageCodecs", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
                    swiftSettings: testSettings),
        .testTarget(name: "ImageCodecsTests", dependencies: [
            "ImageCodecs", "TestSupport", "CZlib",
        ], swiftSettings: testSettings),
        .testTarget(name: "SandboxTests", dependencies: [
            "Sandbox", "Services", "PhotoCore", "FlickrService", "Networking", "TestSupport", "CWebP", "CZlib",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ], exclude: ["Peers"], swiftSettings: testSettings),
        .testTarget(name: "CommonsTests", dependencies: [
            "CommonsService", "PhotoCore", "Networking", "Sandbox", "TestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], exclude: ["Recorded"], swiftSettings: testSettings),
        // `flickr` is listed so the binary the tests start is built first.
        .testTarget(name: "EndToEndTests", dependencies: [
            "TestSupport", "Sandbox", "Services", "PhotoCore", "Networking", "flickr",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
                    swiftSettings: testSettings),
    ]
)

// The libFuzzer harness of Scripts/fuzz. It links only when built with
// `-sanitize=fuzzer`, so it joins the package only when FLICKR_FUZZ=1 and a
// plain `swift build` never sees it.
if Context.environment["FLICKR_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "FuzzHarness", dependencies: [
        "PhotoCore", "Services", "FlickrService", "ShutterstockService", "OpenverseService", "TerminalUI", "CTurboJPEG", "ImageCodecs",
        "Downloads",
    ], swiftSettings: strict))
}
