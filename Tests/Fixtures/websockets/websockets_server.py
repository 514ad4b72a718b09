"""A WebSocket server apx did not write, for WebSocketPythonServerTests.

Python's `websockets` on 127.0.0.1 (or --host), port 0; prints the port on stdout and serves
until stdin closes (or --lifetime seconds pass). With --cert and --key it serves wss:// (TLS).
Paths:
  /echo                  echoes every message; accepts the first subprotocol offered
  /progress?jobId=ID     needs the subprotocol "bookstrack-auth.<token>" (401 without it);
                         sends a snapshot, three progress messages, then {"type":"complete"}
                         and closes with 1000
  /fail                  sends one message, then closes with 1011 "boom"
  /busy                  refuses the handshake with 503 Service Unavailable
  /graphql-deep          graphql-transport-ws: acks connection_init, then answers the subscribe
                         with a "next" whose data nests 100,000 arrays deep (a hostile server)
"""

import argparse
import asyncio
import json
import ssl
import sys
import threading

from websockets.asyncio.server import serve
from websockets.http11 import Response
from websockets.datastructures import Headers


def choose_subprotocol(connection, offered):
    return offered[0] if offered else None


def process_request(connection, request):
    path = request.path.split("?")[0]
    if path == "/progress":
        offered = request.headers.get("Sec-WebSocket-Protocol", "")
        tokens = [p.strip() for p in offered.split(",") if p.strip().startswith("bookstrack-auth.")]
        if not tokens or tokens[0] == "bookstrack-auth.":
            body = b'{"error":"missing token"}'
            return Response(401, "Unauthorized", Headers({"Content-Type": "application/json",
                                                           "Content-Length": str(len(body))}), body)
    if path == "/busy":
        body = b'{"error":"busy"}'
        return Response(503, "Service Unavailable", Headers({"Content-Type": "application/json", "Retry-After": "0",
                                                            "Content-Length": str(len(body))}), body)
    if path not in ("/echo", "/progress", "/fail", "/graphql-deep"):
        return Response(404, "Not Found", Headers({"Content-Length": "0"}), b"")
    return None


async def handler(websocket):
    path = websocket.request.path
    if path.startswith("/echo"):
        async for message in websocket:
            await websocket.send(message)
    elif path.startswith("/progress"):
        job = path.split("jobId=")[-1] if "jobId=" in path else "job"
        await websocket.send(json.dumps({"type": "snapshot", "jobId": job, "processedRows": 0, "totalRows": 3}))
        for done in (1, 2, 3):
            await websocket.send(json.dumps({"type": "progress", "jobId": job, "processedRows": done,
                                             "totalRows": 3}))
        await websocket.send(json.dumps({"type": "complete", "jobId": job, "processedRows": 3, "totalRows": 3}))
        await websocket.close(1000)
    elif path.startswith("/graphql-deep"):
        async for message in websocket:
            kind = json.loads(message).get("type")
            if kind == "connection_init":
                await websocket.send('{"type":"connection_ack"}')
            elif kind == "subscribe":
                deep = "[" * 100000 + "]" * 100000
                await websocket.send('{"id":"1","type":"next","payload":{"data":{"deep":' + deep + '}}}')
                break
    elif path.startswith("/fail"):
        await websocket.send('{"type":"started"}')
        await websocket.close(1011, "boom")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=240)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    tls = None
    if args.cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.cert, args.key)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()

    def wait_for_stdin():
        sys.stdin.read()
        loop.call_soon_threadsafe(lambda: stop.done() or stop.set_result(None))

    threading.Thread(target=wait_for_stdin, daemon=True).start()
    loop.call_later(args.lifetime, lambda: stop.done() or stop.set_result(None))
    select = lambda connection, offered: choose_subprotocol(connection, offered)
    async with serve(handler, args.host, 0, process_request=process_request,
                     select_subprotocol=select, ssl=tls) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await stop


if __name__ == "__main__":
    asyncio.run(main())
