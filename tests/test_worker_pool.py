"""`WorkerPool`: calls answered in worker processes, errors carried back, dead workers replaced.

The functions the workers run live at module level here, so that the workers can import
them by name.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from newscrawl.pipelines.worker_pool import WorkerDied, WorkerPool

T = TypeVar("T")
DEATH = "die"


def square_with_pid(number: int) -> tuple[int, int]:
    return number * number, os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def unpicklable_result() -> Callable[[], None]:
    return lambda: None


def die_on(value: str) -> str:
    """Exit the worker without answering, as a crash in a C extension would."""
    if value == DEATH:
        os._exit(3)
    return value.upper()


def with_pool(processes: int, use: Callable[[WorkerPool], Awaitable[T]]) -> tuple[WorkerPool, T]:
    """Run `use(pool)` on a fresh pool in an event loop, and close the pool after."""

    async def main() -> tuple[WorkerPool, T]:
        pool = WorkerPool(processes)
        try:
            return pool, await use(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


def test_each_call_gets_its_own_answer_from_the_workers() -> None:
    async def use(pool: WorkerPool) -> list[tuple[int, int]]:
        return await asyncio.gather(*(pool.run(square_with_pid, n) for n in range(200)))

    _, answers = with_pool(2, use)
    assert [square for square, _ in answers] == [n * n for n in range(200)]
    pids = {pid for _, pid in answers}
    assert len(pids) == 2
    assert os.getpid() not in pids


def test_an_exception_in_the_call_reaches_the_caller() -> None:
    async def use(pool: WorkerPool) -> tuple[int, int]:
        with pytest.raises(ValueError, match="bad page"):
            await pool.run(fail, "bad page")
        return await pool.run(square_with_pid, 3)  # the worker lives on

    pool, (square, _) = with_pool(1, use)
    assert square == 9
    assert pool.restarts == 0


def test_an_answer_that_does_not_pickle_is_an_error_not_a_hang() -> None:
    async def use(pool: WorkerPool) -> tuple[int, int]:
        with pytest.raises(Exception, match="pickle"):
            await pool.run(unpicklable_result)
        return await pool.run(square_with_pid, 4)

    _, (square, _) = with_pool(1, use)
    assert square == 16


def test_a_call_that_kills_its_worker_costs_only_itself() -> None:
    values = ["a", "b", DEATH, "c", "d", "e"]

    async def use(pool: WorkerPool) -> list[str | BaseException]:
        answers = await asyncio.gather(
            *(pool.run(die_on, value) for value in values), return_exceptions=True
        )
        answers.append(await pool.run(die_on, "after"))
        return answers

    pool, answers = with_pool(1, use)
    deaths = [answer for answer in answers if isinstance(answer, BaseException)]
    assert [type(death) for death in deaths] == [WorkerDied]
    assert answers[values.index(DEATH)] is deaths[0]
    assert [answer for answer in answers if isinstance(answer, str)] == [
        "A",
        "B",
        "C",
        "D",
        "E",
        "AFTER",
    ]
    assert pool.restarts == 1


def test_close_stops_the_workers() -> None:
    async def use(pool: WorkerPool) -> list[tuple[int, int]]:
        return await asyncio.gather(*(pool.run(square_with_pid, n) for n in range(4)))

    pool, answers = with_pool(2, use)
    for _, pid in answers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert pool.restarts == 0


def test_a_pool_needs_a_process() -> None:
    with pytest.raises(ValueError, match="at least one process"):
        WorkerPool(0)
