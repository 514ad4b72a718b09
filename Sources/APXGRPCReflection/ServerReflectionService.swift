import GRPCCore
import SwiftProtobuf

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Answers one server-reflection question with the v1 message types (v1alpha shares their wire
/// format, see `ServerReflectionV1AlphaService`).
package struct ReflectionResponder: Sendable {
  /// Where schemas come from.
  let index: ReflectionIndex

  /// Answers from `index`.
  package init(index: ReflectionIndex) {
    self.index = index
  }

  /// The answer to `request`; lookups that fail become an `error_response`, not a failed call.
  func respond(
    to request: Grpc_Reflection_V1_ServerReflectionRequest
  ) -> Grpc_Reflection_V1_ServerReflectionResponse {
    var response = Grpc_Reflection_V1_ServerReflectionResponse()
    response.validHost = request.host
    response.originalRequest = request
    do throws(ReflectionIndex.LookupError) {
      switch request.messageRequest {
      case .listServices:
        response.listServicesResponse = .with {
          $0.service = self.index.serviceNames.map { name in .with { $0.name = name } }
        }
      case .fileByFilename(let name):
        let files = try self.index.fileWithDependencies(named: name)
        response.fileDescriptorResponse = .with {
          $0.fileDescriptorProto = files.map { Data($0) }
        }
      case .fileContainingSymbol(let symbol):
        let files = try self.index.fileContainingSymbol(symbol)
        response.fileDescriptorResponse = .with {
          $0.fileDescriptorProto = files.map { Data($0) }
        }
      case .fileContainingExtension(let request):
        // None of the served files declares extensions.
        throw ReflectionIndex.LookupError(
          message:
            "No extension \(request.extensionNumber) of '\(request.containingType)' is known."
        )
      case .allExtensionNumbersOfType(let typeName):
        guard self.index.hasMessageType(typeName) else {
          throw ReflectionIndex.LookupError(message: "Message type not found: '\(typeName)'.")
        }
        response.allExtensionNumbersResponse = .with {
          $0.baseTypeName = typeName.hasPrefix(".") ? String(typeName.dropFirst()) : typeName
        }
      case nil:
        response.errorResponse = .with {
          $0.errorCode = Int32(RPCError.Code.invalidArgument.rawValue)
          $0.errorMessage =
            "The request sets no question: set one of list_services, file_by_filename, "
            + "file_containing_symbol, file_containing_extension, all_extension_numbers_of_type."
        }
      }
    } catch {
      response.errorResponse = .with {
        $0.errorCode = Int32(RPCError.Code.notFound.rawValue)
        $0.errorMessage = error.message
      }
    }
    return response
  }
}

/// `grpc.reflection.v1.ServerReflection`.
package struct ServerReflectionV1Service: Grpc_Reflection_V1_ServerReflection.SimpleServiceProtocol {
  /// Answers each question.
  let responder: ReflectionResponder

  /// Serves `responder`'s answers.
  package init(responder: ReflectionResponder) {
    self.responder = responder
  }

  package func serverReflectionInfo(
    request: RPCAsyncSequence<Grpc_Reflection_V1_ServerReflectionRequest, any Error>,
    response: RPCWriter<Grpc_Reflection_V1_ServerReflectionResponse>,
    context: ServerContext
  ) async throws {
    for try await question in request {
      try await response.write(self.responder.respond(to: question))
    }
  }
}

/// `grpc.reflection.v1alpha.ServerReflection`, still the version many clients ask first.
///
/// Its messages are wire-identical to v1's, so each question is re-read as v1 from its bytes and
/// the v1 answer re-read as v1alpha: one implementation serves both versions.
package struct ServerReflectionV1AlphaService:
  Grpc_Reflection_V1alpha_ServerReflection.SimpleServiceProtocol
{
  /// Answers each question.
  let responder: ReflectionResponder

  /// Serves `responder`'s answers.
  package init(responder: ReflectionResponder) {
    self.responder = responder
  }

  package func serverReflectionInfo(
    request: RPCAsyncSequence<Grpc_Reflection_V1alpha_ServerReflectionRequest, any Error>,
    response: RPCWriter<Grpc_Reflection_V1alpha_ServerReflectionResponse>,
    context: ServerContext
  ) async throws {
    for try await question in request {
      let v1Question = try Grpc_Reflection_V1_ServerReflectionRequest(
        serializedBytes: question.serializedBytes() as [UInt8]
      )
      let v1Answer = self.responder.respond(to: v1Question)
      try await response.write(
        Grpc_Reflection_V1alpha_ServerReflectionResponse(
          serializedBytes: v1Answer.serializedBytes() as [UInt8]
        )
      )
    }
  }
}
