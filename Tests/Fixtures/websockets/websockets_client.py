"""A WebSocket client apx did not write, for MockWebSocketTests.

Python's `websockets` connects to URL (offering the subprotocols given after it), prints the
chosen subprotocol, then each message received, then the close code and reason, one JSON line
each, and exits 0 once the server closes.
"""

import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def main():
    url, offered = sys.argv[1], sys.argv[2:]
    async with connect(url, subprotocols=offered or None, open_timeout=30) as ws:
        print(json.dumps({"subprotocol": ws.subprotocol}), flush=True)
        try:
            while True:
                message = await asyncio.wait_for(ws.recv(), timeout=30)
                print(json.dumps({"message": message}), flush=True)
        except ConnectionClosed as closed:
            rcvd = closed.rcvd
            print(json.dumps({"close": rcvd.code if rcvd else None, "reason": rcvd.reason if rcvd else None}),
                  flush=True)


asyncio.run(main())
