#!/usr/bin/env python3
"""A gRPC server apx did not write: Python's grpcio with grpcio-reflection.

Tests/APXIntegrationTests/GRPCIOServerTests.swift runs apx against it, so apx's
gRPC client and reflection client meet implementations other than grpc-swift.

    python3 grpcio_server.py PROTOSET [--reflection v1alpha|v1|none] [--lifetime SECONDS] [--large-schema]

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
- CreateLesson (unary): a lesson whose id is the size in bytes of the request
  message as the server received it, and whose title is the request's first
  20 characters, so a test can tell a large request arrived whole.
- GetLesson with the id "size:N": a lesson of exactly N bytes encoded (its
  summary padded), for answers of a chosen size. With the id "peers": a lesson
  whose title counts the distinct client addresses (connections) the server
  has served so far.
- Calls that fail after the server ran them, for retry tests: CreateLesson of a
  lesson titled "unavailable:..." counts the call, then fails UNAVAILABLE;
  GetLesson of "flaky:..." counts the call and fails UNAVAILABLE for the first
  two; GetLesson of "calls:KEY" answers the count for KEY in its title.

--large-schema adds bigschema.v1.BigSchemaAPI, whose one file descriptor is
over 200 KB (a message of 3,500 long-named fields), with an Echo method that
answers its request: for reflection answers larger than one HTTP/2 window.

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
LARGE_SERVICE = "bigschema.v1.BigSchemaAPI"


def load_pool(protoset):
    """A descriptor pool holding every file of the FileDescriptorSet (imports first, as protoc writes them)."""
    with open(protoset, "rb") as f:
        files = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    return pool


def add_large_schema(pool):
    """Adds LARGE_SERVICE's file to `pool`: one message of 3,500 string fields with long names, so the
    serialized FileDescriptorProto (one reflection answer) is over 200 KB."""
    file = descriptor_pb2.FileDescriptorProto(name="bigschema/v1/big.proto", package="bigschema.v1", syntax="proto3")
    wide = file.message_type.add(name="Wide")
    for number in range(1, 3501):
        wide.field.add(name=f"field_{number:04d}_" + "padding_" * 5, number=number,
                       type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
                       label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    service = file.service.add(name="BigSchemaAPI")
    service.method.add(name="Echo", input_type=".bigschema.v1.Wide", output_type=".bigschema.v1.Wide")
    assert len(file.SerializeToString()) > 200_000
    pool.Add(file)


def large_schema_handler(pool):
    """LARGE_SERVICE's Echo: answers its request."""
    wide = message_factory.GetMessageClass(pool.FindMessageTypeByName("bigschema.v1.Wide"))
    echo = grpc.unary_unary_rpc_method_handler(
        lambda request, context: request, request_deserializer=wide.FromString,
        response_serializer=wide.SerializeToString)
    return grpc.method_handlers_generic_handler(LARGE_SERVICE, {"Echo": echo})


def sized_lesson(Lesson, lesson_id, size):
    """A lesson of exactly `size` bytes encoded, or INVALID_ARGUMENT's text when none can be."""
    lesson = Lesson(id=lesson_id)
    padding = max(size - lesson.ByteSize() - 6, 0)
    for _ in range(8):
        lesson.summary = "s" * padding
        difference = size - lesson.ByteSize()
        if difference == 0:
            return lesson
        padding += difference
        if padding < 0:
            break
    return None


def classnotes_handler(pool):
    """The generic handler of SERVICE: one function per method, request and response classes from `pool`."""
    service = pool.FindServiceByName(SERVICE)
    message = lambda name: message_factory.GetMessageClass(pool.FindMessageTypeByName("classnotes.v1." + name))
    Lesson, Status, Summary, Ack = map(message, ["Lesson", "ProcessingStatus", "UploadSummary", "DocumentAck"])
    peers, peers_lock = set(), threading.Lock()
    calls = {}

    def count_call(key):
        with peers_lock:
            calls[key] = calls.get(key, 0) + 1
            return calls[key]

    def served(function):
        """Records the client's address (one per connection) before the method runs."""
        def recorded(request, context):
            with peers_lock:
                peers.add(context.peer())
            return function(request, context)
        return recorded

    def get_lesson(request, context):
        if request.id.startswith("missing"):
            context.abort(grpc.StatusCode.NOT_FOUND, f"no lesson {request.id}")
        if request.id.startswith("calls:"):
            with peers_lock:
                return Lesson(id=request.id, title=str(calls.get(request.id[6:], 0)))
        if request.id.startswith("flaky:"):
            count = count_call(request.id)
            if count <= 2:
                context.abort(grpc.StatusCode.UNAVAILABLE, f"call {count} of {request.id} fails")
            return Lesson(id=request.id, title=str(count))
        if request.id == "peers":
            with peers_lock:
                return Lesson(id=request.id, title=str(len(peers)))
        if request.id.startswith("size:"):
            lesson = sized_lesson(Lesson, request.id, int(request.id[5:]))
            if lesson is None:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"no lesson can be {request.id[5:]} bytes")
            return lesson
        return Lesson(id=request.id, title=f"Lesson {request.id}")

    def create_lesson(request, context):
        if request.lesson.title.startswith("unavailable:"):
            count_call(request.lesson.title)
            context.abort(grpc.StatusCode.UNAVAILABLE, "the lesson was created, then the server went away")
        return Lesson(id=str(request.ByteSize()), title=request.lesson.title[:20])

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
        return kind(served(function), request_deserializer=request.FromString,
                    response_serializer=response.SerializeToString)

    methods = {
        "GetLesson": (grpc.unary_unary_rpc_method_handler, get_lesson),
        "CreateLesson": (grpc.unary_unary_rpc_method_handler, create_lesson),
        "StreamProcessingStatus": (grpc.unary_stream_rpc_method_handler, stream_processing_status),
        "UploadDocumentChunks": (grpc.stream_unary_rpc_method_handler, upload_document_chunks),
        "SyncDocuments": (grpc.stream_stream_rpc_method_handler, sync_documents),
    }
    return grpc.method_handlers_generic_handler(SERVICE, {name: handler(name, *m) for name, m in methods.items()})


def add_reflection(server, pool, version, services):
    """grpcio-reflection's servicer: as it registers itself (v1alpha), or under grpc.reflection.v1 instead."""
    if version == "v1alpha":
        reflection.enable_server_reflection(services + [reflection.SERVICE_NAME], server, pool=pool)
        return
    v1 = "grpc.reflection.v1.ServerReflection"
    servicer = reflection.ReflectionServicer(services + [v1], pool=pool)
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
    parser.add_argument("--large-schema", action="store_true")
    args = parser.parse_args()

    pool = load_pool(args.protoset)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    handlers, services = [classnotes_handler(pool)], [SERVICE]
    if args.large_schema:
        add_large_schema(pool)
        handlers.append(large_schema_handler(pool))
        services.append(LARGE_SERVICE)
    server.add_generic_rpc_handlers(handlers)
    if args.reflection != "none":
        add_reflection(server, pool, args.reflection, services)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)

    threading.Thread(target=stop_when_stdin_closes, args=(server,), daemon=True).start()
    server.wait_for_termination(timeout=args.lifetime)
    server.stop(None)


if __name__ == "__main__":
    main()
