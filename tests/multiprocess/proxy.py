"""A TCP proxy in its own process: the network path from the app processes to Redis.

Stopping the process cuts every connection through it at once, as a network outage would;
starting it again on the same port restores the path.

    python -m tests.multiprocess.proxy --port 7000 --to 127.0.0.1:6379
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def serve(port: int, host: str, to_port: int) -> None:
    async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(host, to_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(connect, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True, help="to listen on (127.0.0.1)")
    parser.add_argument("--to", required=True, help="host:port to forward to")
    args = parser.parse_args()
    host, _, to_port = args.to.rpartition(":")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, host, int(to_port)))


if __name__ == "__main__":
    main()
