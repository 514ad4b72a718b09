"""A WebSocket server that breaks RFC 6455 on purpose, for WebSocketProtocolViolationTests.

Plain sockets and the standard library only: it answers the handshake itself (so nothing
between it and the client tidies its frames), then, by path:
  /big           one 3,000-byte text frame
  /ping200       a ping of 200 bytes (control frames carry at most 125)
  /fragping      a ping with FIN unset (control frames are never fragmented)
  /continuation  a continuation frame with no message begun
  /interleaved   a text frame without FIN, then a new text frame
  /small         one 10-byte text frame, then a close 1000 (a well-behaved answer)
  /badutf8       a text frame whose bytes are not UTF-8
  /badaccept     a 101 whose Sec-WebSocket-Accept does not answer the key
  /noaccept      a 101 without Sec-WebSocket-Accept
  /protocol      a 101 choosing the subprotocol "evil", whatever was offered
  /deflate       a 101 choosing the extension permessage-deflate, which was not offered
Prints its port on stdout, serves on 127.0.0.1 until stdin closes or --lifetime passes.
"""

import argparse
import base64
import hashlib
import socket
import struct
import sys
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload, fin=True):
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload


FRAMES = {
    "/big": [frame(0x1, b"x" * 3000)],
    "/ping200": [frame(0x9, b"p" * 200)],
    "/fragping": [frame(0x9, b"ping", fin=False)],
    "/continuation": [frame(0x0, b"orphan")],
    "/interleaved": [frame(0x1, b"first", fin=False), frame(0x1, b"second")],
    "/badutf8": [frame(0x1, b'"ok \xff\xfe"')],
    "/small": [frame(0x1, b'"0123456"'), frame(0x8, struct.pack("!H", 1000))],
}


def serve(connection):
    with connection:
        connection.settimeout(10)
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = connection.recv(4096)
            if not chunk:
                return
            request += chunk
        lines = request.split(b"\r\n")
        path = lines[0].split(b" ")[1].decode()
        key = ""
        for line in lines[1:]:
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "sec-websocket-key":
                key = value.strip()
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        route = path.split("?")[0]
        extra = {
            "/badaccept": "Sec-WebSocket-Accept: " + base64.b64encode(b"not the answer").decode() + "\r\n",
            "/noaccept": "",
            "/protocol": "Sec-WebSocket-Accept: " + accept + "\r\nSec-WebSocket-Protocol: evil\r\n",
            "/deflate": "Sec-WebSocket-Accept: " + accept + "\r\nSec-WebSocket-Extensions: permessage-deflate\r\n",
        }.get(route, "Sec-WebSocket-Accept: " + accept + "\r\n")
        connection.sendall(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             + extra + "\r\n").encode())
        for data in FRAMES.get(path.split("?")[0], []):
            connection.sendall(data)
        # Read what the client sends (its close) for a moment, then hang up.
        try:
            while connection.recv(4096):
                pass
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=240)
    args = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.5)
    print(listener.getsockname()[1], flush=True)
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    threading.Timer(args.lifetime, stop.set).start()
    while not stop.is_set():
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    listener.close()


if __name__ == "__main__":
    main()
