"""An HTTP server apx did not write, for MockRecordPythonUpstreamTests.

Python's standard `http.server` on 127.0.0.1, port 0 (HTTP/1.0 answers, each ending when the
connection closes, as simple servers do); prints the port on stdout and serves until stdin
closes (or --lifetime seconds pass). Paths:
  GET  /books/7          {"id": 7, "title": "Dune"} with an ETag
  HEAD /books/7          the same head, no body
  GET  /events           text/event-stream: three events (id 1..3), the last named "done"
  POST /books            201 with Location, echoing the JSON body with "id": 8
  GET  /whoami           echoes the Authorization header it got
"""

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BOOK = json.dumps({"id": 7, "title": "Dune"}).encode()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_json(self, status, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if self.path == "/books/7":
            self.send_json(200, BOOK, [("ETag", '"v7"')])
        elif self.path == "/whoami":
            self.send_json(200, json.dumps({"authorization": self.headers.get("Authorization")}).encode())
        elif self.path == "/events":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for n in (1, 2, 3):
                name = "event: done\n" if n == 3 else ""
                self.wfile.write(f"id: {n}\n{name}data: {json.dumps({'n': n})}\n\n".encode())
                self.wfile.flush()
                time.sleep(0.05)
        else:
            self.send_json(404, b'{"error":"not found"}')

    def do_POST(self):
        if self.path != "/books":
            self.send_json(404, b'{"error":"not found"}')
            return
        length = int(self.headers.get("Content-Length", "0"))
        book = json.loads(self.rfile.read(length) or b"{}")
        book["id"] = 8
        self.send_json(201, json.dumps(book).encode(), [("Location", "/books/8")])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=240)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True

    def stop_when_stdin_closes():
        sys.stdin.read()
        server.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    deadline = threading.Timer(args.lifetime, server.shutdown)
    deadline.daemon = True
    deadline.start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
