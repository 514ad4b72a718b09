import APXCore
import Testing

/// Changes to one kind's options, for tests that vary a registry endpoint. A change to an
/// endpoint of another kind is a test's mistake, recorded as an issue.
extension Endpoint {
  mutating func setGRPC<Value>(_ field: WritableKeyPath<GRPCOptions, Value>, _ value: Value) {
    guard case .grpc(var options) = options else {
      Issue.record("\(name) is a \(kind.rawValue) endpoint, not gRPC")
      return
    }
    options[keyPath: field] = value
    self.options = .grpc(options)
  }

  mutating func setSSE<Value>(_ field: WritableKeyPath<SSEOptions, Value>, _ value: Value) {
    if !options.updateEvents({ $0[keyPath: field] = value }) {
      Issue.record("\(name) is a \(kind.rawValue) endpoint, not SSE")
    }
  }
}
