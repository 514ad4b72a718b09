#!/usr/bin/env python3
"""A small grpcio client: the Python side of bench.py's gRPC comparison.

Makes one call of a method described by a protoset (no generated code: the
message classes are built from the descriptor set at run time), JSON in and
JSON out, like `apx call` does:

    grpc_client.py --target 127.0.0.1:50051 --protoset Protos/classnotes.protoset \
        --method classnotes.v1.ClassNotesAPI/GetLesson --data '{"id": "les_0001"}'

Unary answers print as one JSON line; server-streaming answers print one JSON
line per message (NDJSON). Exits 1 with the status on stderr when the call fails.
"""
import argparse
import sys

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory


def load_method(protoset, full_method):
    """Returns (path, request class, response class, server_streaming) for SERVICE/METHOD."""
    service_name, _, method_name = full_method.partition("/")
    with open(protoset, "rb") as f:
        files = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    method = pool.FindServiceByName(service_name).FindMethodByName(method_name)
    if method is None:
        raise SystemExit(f"{service_name} has no method {method_name}")
    if method.client_streaming:
        raise SystemExit("client-streaming methods are not supported by this benchmark client")
    request = message_factory.GetMessageClass(method.input_type)
    response = message_factory.GetMessageClass(method.output_type)
    return f"/{service_name}/{method_name}", request, response, method.server_streaming


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", required=True, help="HOST:PORT (plaintext)")
    parser.add_argument("--protoset", required=True)
    parser.add_argument("--method", required=True, help="package.Service/Method")
    parser.add_argument("--data", default="{}", help="the request as JSON")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()

    path, request_class, response_class, streaming = load_method(args.protoset, args.method)
    request = json_format.Parse(args.data, request_class())
    out = sys.stdout
    with grpc.insecure_channel(args.target) as channel:
        kind = channel.unary_stream if streaming else channel.unary_unary
        call = kind(path, request_serializer=request_class.SerializeToString,
                    response_deserializer=response_class.FromString)
        try:
            responses = call(request, timeout=args.timeout)
            for message in (responses if streaming else [responses]):
                out.write(json_format.MessageToJson(message, indent=None))
                out.write("\n")
        except grpc.RpcError as error:
            sys.stderr.write(f"grpc_client.py: {error.code().name}: {error.details()}\n")
            sys.exit(1)
    out.flush()


if __name__ == "__main__":
    main()
