"""A minimal forward proxy for the bench, on 127.0.0.1, a thread per connection: CONNECT
tunnels, and absolute-form requests (`GET http://host:port/path HTTP/1.1`, as clients send plain
http to a proxy), each forwarded with `Connection: close` and its answer relayed until the server
closes. Prints its port, then serves until killed (or 10 minutes pass)."""

import os
import socket
import threading


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def handle(client):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = client.recv(4096)
        if not chunk:
            client.close()
            return
        head += chunk
    line = head.split(b"\r\n", 1)[0].decode("latin-1").split()
    if len(line) == 3 and line[1].startswith("http://"):
        forward(client, head, line)
        return
    if len(line) < 2 or line[0] != "CONNECT":
        client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    host, port = line[1].rsplit(":", 1)
    try:
        upstream = socket.create_connection((host, int(port)), timeout=10)
    except OSError:
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    upstream.settimeout(None)
    client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
    threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
    pump(client, upstream)


def forward(client, head, line):
    """Sends one absolute-form request (with no body: the bench sends GETs) on to its server in
    origin form, and relays the answer back until the server closes."""
    method, url, version = line
    authority, _, path = url[len("http://"):].partition("/")
    host, _, port = authority.rpartition(":") if ":" in authority else (authority, "", "80")
    fields = [f for f in head.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]
              if not f.lower().startswith((b"connection:", b"proxy-"))]
    request = f"{method} /{path} {version}\r\n".encode() + b"".join(f + b"\r\n" for f in fields)
    try:
        upstream = socket.create_connection((host, int(port)), timeout=10)
    except OSError:
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    upstream.sendall(request + b"Connection: close\r\n\r\n")
    pump(upstream, client)


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    print(server.getsockname()[1], flush=True)
    threading.Timer(600, lambda: os._exit(0)).start()
    server.settimeout(600)
    while True:
        try:
            client, _ = server.accept()
        except OSError:
            return
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=handle, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
