// swift-tools-version:6.2
import PackageDescription

// One package, Swift 6 language mode. Dependencies point down only:
// apx -> APXRuntime -> (APXCore, APXProtobuf); APXDemoServer imports only APXServing (server
// hosting), neither APXCore nor APXProtobuf, so that it behaves like an independent API.
// scripts/check-imports.sh enforces this.
// Members are visible only from modules a file imports itself (SE-0444): otherwise full
// Foundation's String extensions leak in through dependencies that import it, and one such
// call links all of Foundation and ICU's 34 MB of data into apx.
let ownImportsOnly: [SwiftSetting] = [
  .enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("ExistentialAny"),
]
// Imports are internal unless a file says `public import` (SE-0409), so a module's public API
// names every module it exposes. Not for APXDemoServer: its generated gRPC code comes from
// protoc plugins run without UseAccessLevelOnImports, and it is a test fixture, not API.
let internalImports: [SwiftSetting] = ownImportsOnly + [.enableUpcomingFeature("InternalImportsByDefault")]

let package = Package(
  name: "apx",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "apx", targets: ["apx"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
    .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
    .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // No default traits: FullFoundation links all of Foundation (and ICU's 34 MB of data) for
    // DateFormatter-based form coding the demo does not use; ConfigurationSupport is unused.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // The demo's WebSocket routes (it brings swift-websocket 1.6.2); apx's client is NIOWebSocket's.
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    // NIOHTTPCompression's decompression limit in AsyncHTTPClient's configuration (HTTPSession).
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    // Tests only: the HTTP/2 (ALPN) test server; already in the graph through grpc-swift-nio-transport.
    .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    // Tests only: a throwaway CA and certificates generated at test time for the gRPC TLS tests.
    .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
    // X509's own DER types (a certificate's IP address SANs); already in the graph under X509.
    .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    // The graph already resolves swift-crypto 4.x (swift-certificates accepts 3.12.3..<6).
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    // Child processes (token_command, protoc, and the tests' apx runs) without Foundation's
    // Process, whose Linux spawn scans /proc/self/fd and crashed the test run (see
    // Tests/APXIntegrationTests/Support/ChildProcess.swift). Its Foundation trait is off:
    // FoundationEssentials is enough and keeps ICU out of the binary.
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    // GraphQL documents and schemas: the reference parser, schema types and building a schema
    // from an introspection result (APXGraphQL); the demo's GraphQL API executes with it too.
    // It imports full Foundation (NSRegularExpression for source locations), which links ICU's
    // data into apx: docs/architecture.md says why that is accepted. apx's own modules still
    // import FoundationEssentials only.
    .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
    // GraphQLSwift's maps are OrderedDictionary (the demo's schema, introspection results in APXGraphQL).
    .package(url: "https://github.com/apple/swift-collections.git", from: "1.0.0"),
    // Tests only: property-based and mutation tests of every parser and decoder (Tests/*/Fuzz).
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // Pure: bytes and values in, values out. No sockets, files, environment or clock.
    .target(name: "APXCore", swiftSettings: internalImports),
    // Dynamic protobuf: descriptor pool + proto3 JSON <-> wire codec.
    .target(
      name: "APXProtobuf",
      dependencies: [
        "APXCore",
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      swiftSettings: internalImports
    ),
    // LibYAML's parser (vendored from Yams 6.2.2's copy, MIT; see its LICENSE) for YAML API
    // descriptions. Yams itself links all of Foundation and so ICU's 34 MB of data.
    .target(
      name: "CLibYAML",
      exclude: ["LICENSE"],
      cSettings: [.define("YAML_DECLARE_STATIC")]
    ),
    // Pure importers: an API description (OpenAPI/Swagger tree, gRPC descriptors) in,
    // registry values and diagnostics out. No sockets, files or environment.
    .target(
      name: "APXImport",
      dependencies: ["APXCore", "CLibYAML"],
      swiftSettings: internalImports
    ),
    // GraphQL documents: GraphQLSwift's parser wrapped in apx's errors, operation picking,
    // variables, and schemas from introspection or SDL. Pure, like APXCore.
    .target(
      name: "APXGraphQL",
      dependencies: [
        "APXCore", .product(name: "GraphQL", package: "GraphQL"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: internalImports
    ),
    // Side effects: HTTP, SSE sessions, gRPC, auth, executor, recipe runner.
    .target(
      name: "APXRuntime",
      dependencies: [
        "APXCore",
        "APXProtobuf",
        "APXGraphQL",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        // TLSUserEvent: a WebSocket handshake through a proxy waits for TLS to check the certificate.
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        // NIOHTTP1ProxyConnectHandler: the CONNECT tunnel of gRPC (TunnelRelay) and WebSocket
        // (ProxyConnectPipeline) through a proxy.
        .product(name: "NIOExtras", package: "swift-nio-extras"),
        // GzipFile runs NIOHTTPCompression's decompressor in an EmbeddedChannel.
        .product(name: "NIOEmbedded", package: "swift-nio"),
        // SHA-256 of credentials in the token store's key (TokenOrigin).
        .product(name: "Crypto", package: "swift-crypto"),
        // token_command and protoc (Process/ChildProcessRunner.swift).
        .product(name: "Subprocess", package: "swift-subprocess"),
        // WebSocket calls: the handshake and framing (WebSocket/WebSocketChannel.swift).
        .product(name: "NIOWebSocket", package: "swift-nio"),
        // The IP address SANs of a certificate met through a proxy's tunnel (TunnelledAddressCheck);
        // already linked for grpc-swift-nio-transport.
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ],
      swiftSettings: internalImports
    ),
    // gRPC services mocked from their descriptors (`apx mock`): examples, reflection, auth in form.
    .target(
      name: "APXGRPCMock",
      dependencies: [
        // Server reflection answers for the mocked services as it does for the demo's.
        "APXCore", "APXProtobuf", "APXServing", "APXGRPCReflection",
        // Replayed HAR exchanges (APXMock/Replay), which answer recorded gRPC calls too.
        "APXMock",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      swiftSettings: internalImports
    ),
    // Serving: a Hummingbird application or a grpc-swift server run, bound and stopped, for
    // the demo backend and `apx mock` alike. It knows nothing of apx's client.
    .target(
      name: "APXServing",
      dependencies: [
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
      ],
      swiftSettings: internalImports
    ),
    // gRPC server reflection (v1 and v1alpha) answered from a descriptor set, with its generated
    // messages: served by the demo and by `apx mock`'s gRPC half alike. It knows nothing of apx's client.
    .target(
      name: "APXGRPCReflection",
      dependencies: [
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      swiftSettings: ownImportsOnly
    ),
    // The embedded demo backend (REST, SSE, gRPC) with fault injection, on APXServing and the
    // reflection service only.
    .target(
      name: "APXDemoServer",
      dependencies: [
        "APXServing",
        "APXGRPCReflection",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "GraphQL", package: "GraphQL"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        // SHA-256 of uploaded documents (ClassNotesService).
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: ownImportsOnly
    ),
    // `apx mock`: a registry (or an imported description) served as a fake backend, on
    // APXServing's Hummingbird plumbing (HTTPServerHost).
    .target(
      name: "APXMock",
      dependencies: [
        "APXCore",
        // The operations of GraphQL documents, which pick the endpoint that answers a request.
        "APXGraphQL",
        "APXServing",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "DequeModule", package: "swift-collections"),
        // The S256 challenge a mocked login's code verifier must match.
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: internalImports
    ),
    // The executable: the only target that imports ArgumentParser, reads the
    // environment, writes to stdout, or maps errors to exit codes.
    .executableTarget(
      name: "apx",
      dependencies: [
        "APXCore",
        "APXRuntime",
        "APXImport",
        "APXGraphQL",
        "APXDemoServer",
        "APXMock",
        "APXGRPCMock",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: internalImports
    ),
    // In-process benchmarks (scripts/bench/bench.py runs the release build).
    .executableTarget(
      name: "apx-bench",
      dependencies: [
        "APXProtobuf", "APXCore", "APXDemoServer", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Sources/apx-bench"
    ),
    // Test helpers shared by the test targets (whether a protoc is installed, asked as apx asks).
    .target(
      name: "APXTestSupport", dependencies: ["APXRuntime"], path: "Tests/APXTestSupport",
      swiftSettings: internalImports),
    // APXGraphQL's tests live here too: its fuzz tests share Fuzz/FuzzSupport.swift.
    .testTarget(
      name: "APXCoreTests",
      // APXMock: the HAR reader is fuzzed with the other parsers of what a server or a file hands apx.
      dependencies: [
        "APXCore", "APXGraphQL", "APXMock", .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "APXProtobufTests",
      dependencies: ["APXProtobuf", "APXCore", .product(name: "PropertyBased", package: "swift-property-based")],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "APXImportTests", dependencies: ["APXImport", "APXCore"]),
    .testTarget(
      name: "APXRuntimeTests",
      dependencies: [
        "APXRuntime", "APXCore", "APXProtobuf", "APXDemoServer", "APXGRPCReflection", "APXTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        // The proxy relays' handlers on embedded channels (ProxyRelayChannelTests).
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ]
    ),
    // `apx mock`'s answering, validation, faults and state in memory (MockAPI, no sockets).
    .testTarget(
      name: "APXMockTests",
      dependencies: ["APXMock", "APXCore", .product(name: "Crypto", package: "swift-crypto")]),
    // Unit tests of the executable's own code (flag parsing, exit codes, curl lines).
    .testTarget(name: "APXCLITests", dependencies: ["apx"]),
    .testTarget(
      name: "APXIntegrationTests",
      dependencies: [
        "APXDemoServer", "APXGRPCMock", "APXMock", "APXProtobuf", "APXCore", "APXTestSupport",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Subprocess", package: "swift-subprocess"),
        // The hostile HTTP test server (Support/HostileHTTPServer.swift).
        .product(name: "NIOPosix", package: "swift-nio"),
        // TLSTestServer: an HTTPS server for the SSL_CERT_FILE / SSL_CERT_DIR tests.
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTP2", package: "swift-nio-http2"),
        // ConnectProxyServer: the forward proxy of the proxy tests.
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
  ]
)
