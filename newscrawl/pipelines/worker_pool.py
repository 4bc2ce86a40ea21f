"""Run CPU-bound calls in worker processes, from asyncio code, surviving a worker that dies.

Scrapy runs spiders, middlewares and pipelines on one thread: a pipeline that spends a
millisecond of CPU on each page holds up downloads and scheduling for that long, and
AutoThrottle reads the wait as server latency. `WorkerPool` moves such calls to other
cores.

Each worker reads calls from a socket and writes the results back in order; the event loop
reads and writes the other end without blocking. There are no threads: with
`concurrent.futures.ProcessPoolExecutor`, its feeder and manager threads took the GIL from
the crawl about half a millisecond per call, and queued only one call ahead per worker.

A worker that dies (a crash in a C extension, the OOM killer) fails every call it had
queued, not only the one that killed it. So the worker is replaced, and each failed call is
retried alone in a one-off process; only a call that kills that process too is given up
(`WorkerDied`). One bad page thus costs itself, never its neighbours, and never the crawl.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import pickle
import signal
import socket
import struct
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, ParamSpec, TypeVar, cast

P = ParamSpec("P")
T = TypeVar("T")
_Context = ForkServerContext | SpawnContext
SEND_BUFFER_BYTES = 4 * 2**20
"""The socket buffer asked for calls on their way to a worker. The event loop refills it
once per turn, and a turn of a busy crawl can outlast the extraction of a default 208 KiB
worth of pages (four 54 KB pages): the worker would sit idle with calls queued. The kernel
caps the size at net.core.wmem_max."""
_HEADER = struct.Struct("!Q")
"""Each message: its length, then the pickle."""


class WorkerDied(RuntimeError):
    """The call killed the process running it, twice: once in the pool, once alone."""


class _WorkerLost(Exception):
    """The worker running a call exited before answering it."""


class WorkerPool:
    """`processes` worker processes; `await pool.run(fn, *args)` from the event loop.

    `fn` and its arguments must pickle (a module-level function and plain data). Calls go
    to the worker with the fewest waiting. `preload` names modules that workers import once,
    before they fork, where the platform forks workers from a server process (Linux);
    elsewhere each worker imports them itself.
    """

    def __init__(self, processes: int, preload: Sequence[str] = ()) -> None:
        if processes < 1:
            raise ValueError(f"a worker pool needs at least one process, not {processes}")
        self.processes = processes
        self.restarts = 0
        """How many workers died and were replaced."""
        self._context = _start_context(preload)
        self._workers: list[_Worker] = []

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker; retried alone when its worker died."""
        message = _pack((fn, args, kwargs))
        try:
            return cast(T, await self._least_busy().call(message))
        except _WorkerLost:
            pass
        solo = await _Worker.start(self._context)
        try:
            return cast(T, await solo.call(message))
        except _WorkerLost as error:
            raise WorkerDied(f"{getattr(fn, '__name__', fn)} killed its worker process") from error
        finally:
            await solo.stop()

    async def close(self) -> None:
        """Stop the workers once they have answered every call they were given."""
        workers, self._workers = self._workers, []
        for worker in workers:
            await worker.stop()

    def _least_busy(self) -> _Worker:
        """A live worker with the fewest calls waiting; dead ones are replaced first."""
        alive = [worker for worker in self._workers if worker.alive]
        self.restarts += len(self._workers) - len(alive)
        while len(alive) < self.processes:
            alive.append(_Worker.spawn(self._context))
        self._workers = alive
        return min(alive, key=lambda worker: len(worker.waiting))


class _Worker:
    """One worker process and the calls it has not answered yet, oldest first."""

    def __init__(self, process: BaseProcess, connection: socket.socket) -> None:
        self.process = process
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.alive = True
        self._streams: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.ensure_future(asyncio.open_connection(sock=connection))
        )
        self._reading = asyncio.ensure_future(self._read_answers())

    @classmethod
    def spawn(cls, context: _Context) -> _Worker:
        ours, theirs = socket.socketpair()
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        process = context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return cls(process, ours)

    @classmethod
    async def start(cls, context: _Context) -> _Worker:
        worker = cls.spawn(context)
        await worker._streams
        return worker

    async def call(self, message: bytes) -> Any:
        """Send one packed call and wait for its answer."""
        if not self.alive:
            raise _WorkerLost
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.append(answer)
        _, writer = await self._streams
        writer.write(message)
        ok, value = await answer
        if not ok:
            raise value
        return value

    async def stop(self) -> None:
        """Close the call stream: the worker answers what it has, sees the end, and exits."""
        _, writer = await self._streams
        writer.close()
        await self._reading
        await asyncio.get_running_loop().run_in_executor(None, self.process.join, 5)

    async def _read_answers(self) -> None:
        reader, _ = await self._streams
        try:
            while True:
                header = await reader.readexactly(_HEADER.size)
                payload = await reader.readexactly(_HEADER.unpack(header)[0])
                self.waiting.popleft().set_result(pickle.loads(payload))
        except (asyncio.IncompleteReadError, ConnectionError):
            self.alive = False
            while self.waiting:
                self.waiting.popleft().set_exception(_WorkerLost())


def _serve(connection: socket.socket) -> None:
    """The worker: answer calls in order until the stream ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()  # what the fork server imported: garbage collections need not walk it
    with connection, connection.makefile("rb") as calls:
        while header := calls.read(_HEADER.size):
            fn, args, kwargs = pickle.loads(calls.read(_HEADER.unpack(header)[0]))
            try:
                answer = _pack((True, fn(*args, **kwargs)))
            except Exception as error:
                answer = _pack_error(error)
            connection.sendall(answer)


def _pack(value: object) -> bytes:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(payload)) + payload


def _pack_error(error: Exception) -> bytes:
    """The call's exception, or a RuntimeError naming it when it does not pickle."""
    try:
        return _pack((False, error))
    except Exception:
        return _pack((False, RuntimeError(f"in a worker process: {error!r}")))


def _start_context(preload: Sequence[str]) -> _Context:
    """A fork server where there is one: forking the crawl itself would copy its reactor
    and threads into the workers, and spawning pays the imports in every worker."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    return context
