"""A graphql-transport-ws client on Python's websockets, to judge a server apx did not write the
client of: `python3 graphql_ws_client.py URL SCENARIO` prints one JSON line per message received,
then {"closed": CODE}.

Scenarios: `subscribe` (init, then a subscribe of `subscription Ticks { tick { n } }`),
`early` (a subscribe before connection_init), `twice` (connection_init twice).
Bounded: every receive waits at most 10 s.
"""
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def main(url, scenario):
    subscribe = json.dumps({"id": "1", "type": "subscribe",
                            "payload": {"query": "subscription Ticks { tick { n } }", "operationName": "Ticks"}})
    init = json.dumps({"type": "connection_init"})
    async with connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10) as ws:
        print(json.dumps({"subprotocol": ws.subprotocol}), flush=True)
        sends = {"subscribe": [init, subscribe], "early": [subscribe], "twice": [init, init]}[scenario]
        for message in sends:
            await ws.send(message)
        try:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                print(json.dumps(message), flush=True)
                if message.get("type") == "complete":
                    await ws.close()
        except ConnectionClosed as closed:
            print(json.dumps({"closed": closed.rcvd.code if closed.rcvd else None}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
