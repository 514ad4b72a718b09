#!/usr/bin/env python3
"""A gRPC server apx did not write: Python's grpcio with grpcio-reflection.

Tests/APXIntegrationTests/GRPCIOServerTests.swift runs apx against it, so apx's
gRPC client and reflection client meet implementations other than grpc-swift.

    python3 grpcio_server.py PROTOSET [--reflection v1alpha|v1|none] [--lifetime SECONDS]

Serves classnotes.v1.ClassNotesAPI from the protoset's descriptors, with no
generated code (message classes are built from the descriptor pool at run time).
Every answer depends on the request, so a test can tell it from a wrong one:

- GetLesson (unary): a lesson whose id is the request's and whose title is
  "Lesson <id>"; NOT_FOUND "no lesson <id>" for an id starting with "missing".
- StreamProcessingStatus (server streaming): `count` messages (3 when 0), each
  carrying the lesson id and its 1-based sequence; the last is COMPLETED. For a
  lesson id starting with "missing", NOT_FOUND after the second message.
- UploadDocumentChunks (client streaming): the first chunk's filename, the
  number of chunks, their total size and the SHA-256 of their data;
  INVALID_ARGUMENT "chunk N is empty" at the first chunk without data, and the
  summary so far at a chunk named "stop-here", without reading the rest.
- SyncDocuments (bidi): one ack per change as it arrives, version
  base_version + 1; a DELETE is refused with a reason.

--reflection: grpcio-reflection (1.85) registers grpc.reflection.v1alpha only, so
apx must fall back from v1 (the default); v1 serves the same servicer as
grpc.reflection.v1 only (the two protocols are wire-identical); none serves none.

Listens on 127.0.0.1 only, on a port the system picks, and prints that port as
one line on stdout. Stops when its stdin closes (the test ended, or crashed) or
after --lifetime seconds (60 by default), whichever comes first.
"""
import argparse
import hashlib
import os
import threading
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_reflection.v1alpha import reflection, reflection_pb2

SERVICE = "classnotes.v1.ClassNotesAPI"


def load_pool(protoset):
    """A descriptor pool holding every file of the FileDescriptorSet (imports first, as protoc writes them)."""
    with open(protoset, "rb") as f:
        files = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    return pool


def classnotes_handler(pool):
    """The generic handler of SERVICE: one function per method, request and response classes from `pool`."""
    service = pool.FindServiceByName(SERVICE)
    message = lambda name: message_factory.GetMessageClass(pool.FindMessageTypeByName("classnotes.v1." + name))
    Lesson, Status, Summary, Ack = map(message, ["Lesson", "ProcessingStatus", "UploadSummary", "DocumentAck"])

    def get_lesson(request, context):
        if request.id.startswith("missing"):
            context.abort(grpc.StatusCode.NOT_FOUND, f"no lesson {request.id}")
        return Lesson(id=request.id, title=f"Lesson {request.id}")

    def stream_processing_status(request, context):
        count = request.count or 3
        for sequence in range(1, count + 1):
            if sequence == 3 and request.lesson_id.startswith("missing"):
                context.abort(grpc.StatusCode.NOT_FOUND, f"no lesson {request.lesson_id}")
            stage = "COMPLETED" if sequence == count else "OCR"
            yield Status(lesson_id=request.lesson_id, stage=stage, sequence=sequence, progress=sequence / count)

    def upload_document_chunks(chunks, context):
        digest, filename, count, size = hashlib.sha256(), "", 0, 0
        for chunk in chunks:
            if not chunk.data:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"chunk {count + 1} is empty")
            filename = filename or chunk.filename
            count, size = count + 1, size + len(chunk.data)
            digest.update(chunk.data)
            if chunk.filename == "stop-here":
                break
        return Summary(filename=filename, chunk_count=count, total_size=size, sha256=digest.hexdigest())

    def sync_documents(changes, context):
        for change in changes:
            refused = change.operation == change.DELETE
            yield Ack(document_id=change.document_id, version=change.base_version + 1, accepted=not refused,
                      reason="deletes are refused" if refused else "")

    def handler(name, kind, function):
        method = service.methods_by_name[name]
        request = message_factory.GetMessageClass(method.input_type)
        response = message_factory.GetMessageClass(method.output_type)
        return kind(function, request_deserializer=request.FromString, response_serializer=response.SerializeToString)

    methods = {
        "GetLesson": (grpc.unary_unary_rpc_method_handler, get_lesson),
        "StreamProcessingStatus": (grpc.unary_stream_rpc_method_handler, stream_processing_status),
        "UploadDocumentChunks": (grpc.stream_unary_rpc_method_handler, upload_document_chunks),
        "SyncDocuments": (grpc.stream_stream_rpc_method_handler, sync_documents),
    }
    return grpc.method_handlers_generic_handler(SERVICE, {name: handler(name, *m) for name, m in methods.items()})


def add_reflection(server, pool, version):
    """grpcio-reflection's servicer: as it registers itself (v1alpha), or under grpc.reflection.v1 instead."""
    if version == "v1alpha":
        reflection.enable_server_reflection([SERVICE, reflection.SERVICE_NAME], server, pool=pool)
        return
    v1 = "grpc.reflection.v1.ServerReflection"
    servicer = reflection.ReflectionServicer([SERVICE, v1], pool=pool)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(v1, {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString),
    })])


def stop_when_stdin_closes(server):
    """Stdin closing is the test saying it is done (or its process died): stop at once.
    os.read, not sys.stdin: a thread blocked in a buffered read aborts the interpreter's exit."""
    while os.read(0, 4096):
        pass
    server.stop(None)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("protoset")
    parser.add_argument("--reflection", choices=["v1alpha", "v1", "none"], default="v1alpha")
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()

    pool = load_pool(args.protoset)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers([classnotes_handler(pool)])
    if args.reflection != "none":
        add_reflection(server, pool, args.reflection)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)

    threading.Thread(target=stop_when_stdin_closes, args=(server,), daemon=True).start()
    server.wait_for_termination(timeout=args.lifetime)
    server.stop(None)


if __name__ == "__main__":
    main()
