// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

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
        .target(name: "CPty"),

        // Layers, bottom up.
        .target(name: "Binding", swiftSettings: strict),
        .target(name: "FlickrKit", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strict),
        .target(name: "ImagePipeline", dependencies: [
            "FlickrKit",
            .product(name: "Collections", package: "swift-collections"),
        ], swiftSettings: strict),
        .target(name: "FlickrViewModels", dependencies: [
            "Binding", "FlickrKit", "ImagePipeline",
        ], swiftSettings: strict),
        .target(name: "TerminalUI", dependencies: [
            "Binding", "FlickrViewModels", "CReadline", "CChafa", "CTurboJPEG",
        ], swiftSettings: strict),
        .target(name: "Sandbox", dependencies: [
            "CTurboJPEG",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], swiftSettings: strict),
        .executableTarget(name: "flickr", dependencies: [
            "FlickrKit", "ImagePipeline", "FlickrViewModels", "TerminalUI", "Sandbox",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: strict),

        // Render benchmark driver for Scripts/bench (not part of the product).
        .executableTarget(name: "flickr-bench", dependencies: [
            "TerminalUI", "ImagePipeline", "Sandbox", "FlickrKit", "TestSupport",
        ], swiftSettings: strict),

        // Shared test support: pty driver, sandbox launcher, terminal screen model.
        .target(name: "TestSupport", dependencies: ["CPty", "Sandbox", "FlickrKit"],
                swiftSettings: strict),

        .testTarget(name: "BindingTests", dependencies: ["Binding"], swiftSettings: strict),
        .testTarget(name: "FlickrKitTests", dependencies: [
            "FlickrKit", "TestSupport", "Sandbox",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], exclude: ["Recorded"], swiftSettings: strict),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "FlickrViewModelsTests", dependencies: ["FlickrViewModels", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport", "Sandbox"],
                    swiftSettings: strict),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "flickr"],
                    swiftSettings: strict),
    ]
)
