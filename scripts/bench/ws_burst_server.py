#!/usr/bin/env python3
"""A WebSocket sender that is not the bottleneck, for bench.py's message-rate row.

Answers one handshake per connection (RFC 6455, no extensions), then writes `?n=N` small text
messages as pre-built unmasked frames in large writes, then a close frame, and waits for the
client's close. It prints its port on stdout and exits after `--idle` seconds without a client.
Bench only: the demo backend builds every message as it goes, so it cannot show how fast a
client reads.
"""
import argparse
import asyncio
import base64
import hashlib
import json
import urllib.parse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(payload: bytes, opcode: int = 1) -> bytes:
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 127]) + n.to_bytes(8, "big")
    return head + payload


def burst(n: int) -> bytes:
    return b"".join(frame(json.dumps({"seq": i + 1, "type": "tick"}).encode()) for i in range(n))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=30.0)
    args = parser.parse_args()
    cache = {}
    last = asyncio.get_running_loop().time()

    async def serve(reader, writer):
        nonlocal last
        last = asyncio.get_running_loop().time()
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            lines = head.decode("latin-1").split("\r\n")
            target = lines[0].split(" ")[1]
            fields = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
            key = fields.get("sec-websocket-key", "")
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(target).query)
            n = int(query.get("n", ["1000"])[0])
            if n not in cache:
                cache[n] = burst(n)
            writer.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode())
            data = cache[n]
            for i in range(0, len(data), 1 << 20):
                writer.write(data[i:i + (1 << 20)])
                await writer.drain()
            writer.write(frame(b"\x03\xe8", opcode=8))
            await writer.drain()
            await asyncio.wait_for(reader.read(1 << 16), 10)
        except (asyncio.TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            last = asyncio.get_running_loop().time()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        while asyncio.get_running_loop().time() - last < args.idle:
            await asyncio.sleep(0.5)


if __name__ == "__main__":
    asyncio.run(main())
