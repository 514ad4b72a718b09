"""A GraphQL server apx did not write, for GraphQLStrawberryTests.

Python's strawberry-graphql on aiohttp, on 127.0.0.1 port 0; prints the port on stdout and
serves until stdin closes (or --lifetime seconds pass). /graphql serves GraphQL over HTTP
(introspection allowed); /private/graphql serves the same schema with introspection refused.
Schema: a small library of authors and books.
  query   book(id: ID!): Book          (null for an unknown id)
  query   books(first: Int = 10): [Book!]!
  query   shaky: Book                  (data with an error: the author field fails)
  query   broken: String!              (no data: the non-null field fails)
  query   refusal: String              (an error that echoes the request's Authorization)
  query   scaled(values: [Int!]!, factor: Float!, negate: Boolean! = false): [Float!]!
  mutation addBook(title: String!, authorId: ID!): Book!
  subscription countdown(from: Int!): Int!
  subscription shakyBooks: Book!       (two books; the second's author field fails)
  subscription whoami: String          (the Authorization of connection_init's payload)
  subscription refusals: Refusal!      (one result whose reason fails, echoing that Authorization)
/auth/graphql closes a WebSocket whose connection_init payload lacks
"Authorization": "Bearer s3cret-token" with 4403, as strawberry's on_ws_connect rejection does.
"""

import argparse
import asyncio
import sys
import threading
import typing

import strawberry
from aiohttp import web
from strawberry.aiohttp.views import GraphQLView
from strawberry.exceptions import ConnectionRejectionError
from strawberry.extensions import AddValidationRules
from graphql.validation import NoSchemaIntrospectionCustomRule


@strawberry.type
class Author:
    id: strawberry.ID
    name: str

    @strawberry.field
    def books(self) -> typing.List["Book"]:
        return [b for b in BOOKS.values() if b.author_id == self.id]


@strawberry.type
class Book:
    id: strawberry.ID
    title: str
    year: int
    author_id: strawberry.Private[str]

    @strawberry.field
    def author(self) -> typing.Optional[Author]:
        if self.author_id == "missing":
            raise ValueError("author record is missing")
        return AUTHORS.get(self.author_id)


AUTHORS = {"a1": Author(id="a1", name="Ursula K. Le Guin"), "a2": Author(id="a2", name="Octavia E. Butler")}
BOOKS = {
    "1": Book(id="1", title="The Dispossessed", year=1974, author_id="a1"),
    "2": Book(id="2", title="Kindred", year=1979, author_id="a2"),
    "3": Book(id="3", title="The Left Hand of Darkness", year=1969, author_id="a1"),
}


@strawberry.type
class Refusal:
    @strawberry.field
    def reason(self, info: strawberry.Info) -> typing.Optional[str]:
        raise ValueError("refused " + str((info.context.get("connection_params") or {}).get("Authorization")))


@strawberry.type
class Query:
    @strawberry.field
    def book(self, id: strawberry.ID) -> typing.Optional[Book]:
        return BOOKS.get(id)

    @strawberry.field
    def books(self, first: int = 10) -> typing.List[Book]:
        return list(BOOKS.values())[:first]

    @strawberry.field
    def shaky(self) -> typing.Optional[Book]:
        return Book(id="9", title="Orphan", year=2000, author_id="missing")

    @strawberry.field
    def broken(self) -> str:
        raise ValueError("broken on purpose")

    @strawberry.field
    def refusal(self, info: strawberry.Info) -> typing.Optional[str]:
        raise ValueError("refused " + info.context["request"].headers.get("Authorization", "(none)"))

    @strawberry.field
    def scaled(self, values: typing.List[int], factor: float, negate: bool = False) -> typing.List[float]:
        return [(-v if negate else v) * factor for v in values]


@strawberry.type
class Mutation:
    @strawberry.mutation
    def add_book(self, title: str, author_id: strawberry.ID) -> Book:
        book = Book(id=str(len(BOOKS) + 1), title=title, year=2024, author_id=author_id)
        BOOKS[book.id] = book
        return book


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def countdown(
        self, from_: typing.Annotated[int, strawberry.argument(name="from")]
    ) -> typing.AsyncGenerator[int, None]:
        for i in range(from_, -1, -1):
            yield i

    @strawberry.subscription
    async def shaky_books(self) -> typing.AsyncGenerator[Book, None]:
        yield BOOKS["1"]
        yield Book(id="9", title="Orphan", year=2000, author_id="missing")

    @strawberry.subscription
    async def whoami(self, info: strawberry.Info) -> typing.AsyncGenerator[typing.Optional[str], None]:
        yield (info.context.get("connection_params") or {}).get("Authorization")

    @strawberry.subscription
    async def refusals(self) -> typing.AsyncGenerator[Refusal, None]:
        yield Refusal()


class AuthView(GraphQLView):
    async def on_ws_connect(self, context):
        if (context.get("connection_params") or {}).get("Authorization") != "Bearer s3cret-token":
            raise ConnectionRejectionError()
        return await super().on_ws_connect(context)


schema = strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription)
private_schema = strawberry.Schema(
    query=Query, mutation=Mutation, subscription=Subscription,
    extensions=[lambda: AddValidationRules([NoSchemaIntrospectionCustomRule])])


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=240)
    args = parser.parse_args()
    app = web.Application()
    app.router.add_route("*", "/graphql", GraphQLView(schema=schema))
    app.router.add_route("*", "/private/graphql", GraphQLView(schema=private_schema))
    app.router.add_route("*", "/auth/graphql", AuthView(schema=schema))
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(port, flush=True)
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    threading.Thread(target=lambda: (sys.stdin.read(), loop.call_soon_threadsafe(done.set)), daemon=True).start()
    try:
        await asyncio.wait_for(done.wait(), args.lifetime)
    except asyncio.TimeoutError:
        pass
    await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
