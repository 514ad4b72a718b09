"""A small HTTPS server for the bench's proxy row, on 127.0.0.1: every GET is answered with a
small JSON body over TLS with a self-signed certificate for localhost and 127.0.0.1 made by `openssl` in a
temporary folder. Prints `PORT CAFILE`, then serves until killed (or 10 minutes pass)."""

import http.server
import os
import socket
import ssl
import subprocess
import tempfile
import threading

BODY = b'{"id":1,"title":"The Left Hand of Darkness","author":"Ursula K. Le Guin","year":1969}'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        # Without it the head and body, written apart, wait on the client's delayed ACK.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().setup()

    def do_GET(self):
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(BODY)}\r\n\r\n")
        self.wfile.write(head.encode() + BODY)

    def log_message(self, *args):
        pass


def main():
    folder = tempfile.mkdtemp(prefix="apx-bench-tls-")
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["http/1.1"])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], cert, flush=True)
    threading.Timer(600, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
