"""Thinking apart: a bot's decisions in a process of its own, at low priority.

The expert searches for up to a few hundred milliseconds of CPU per
decision.  Run inside a web request, that work competes for the same cores
and the same interpreter lock as every scoreboard, wall and save the server
answers at that moment.  :class:`Apart` hands each decision to one helper
process per server process, started on first use at a lower priority
(``NICENESS``), so on a busy machine the pages come first and the computer
players take the time left over.  The request waits for the answer without
holding the interpreter lock.

Nothing is kept there: a decision is a pure function of the bot (its
settings) and the seat's view, both sent whole, so the answer is the same
as in the request's own process (``tests/bots/test_apart.py``).  When the
helper cannot answer (it died, it was stopped, it takes longer than
``TIMEOUT``) the decision is made in the request instead, and a new helper
is started for the next one.  A helper whose server process is gone exits
within a second (it watches its parent), so a killed or reloaded worker
leaves nothing behind.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from ..rules import Card
from .protocol import Bot, Source
from .view import SeatView

log = logging.getLogger(__name__)

#: The helper's niceness (0 normal, 19 lowest): pages first, thinking after.
NICENESS = 10
#: Seconds a decision may wait for the helper before the request makes it.
TIMEOUT = 10.0

_lock = threading.Lock()
_pool: Executor | None = None
_pool_pid = 0  # the process that started the helper (a forked child starts its own)

T = TypeVar("T")


def _start_helper(parent: int) -> None:
    """In the helper: lower its priority, leave Ctrl-C to the server (which
    stops it), and exit once ``parent`` is gone."""
    os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)  # the server process is gone: nobody waits for an answer


def _decide(bot: Bot, question: str, view: SeatView) -> object:
    """In the helper: the bot's answer to ``question`` about ``view``."""
    return getattr(bot, question)(view)


def helper() -> Executor:
    """This process's helper, started on first use."""
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid():
            context = multiprocessing.get_context("spawn")  # never fork a threaded server
            _pool = ProcessPoolExecutor(1, mp_context=context, initializer=_start_helper, initargs=(os.getpid(),))
            _pool_pid = os.getpid()
        return _pool


def _drop(pool: Executor) -> None:
    """Forget a helper that failed; the next decision starts a new one."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    # A helper that is stuck would never pick up the shutdown: end it
    # (the executor keeps its processes in ``_processes``; none once broken).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()


def shutdown() -> None:
    """Stop this process's helper (tests; a server process's exit does it too)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


class Apart:
    """``bot``, thinking in the helper process; the same answers."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose_draw(self, view: SeatView) -> Source:
        return self._ask("choose_draw", view, self.bot.choose_draw)

    def choose_end(self, view: SeatView) -> tuple[Card, bool]:
        return self._ask("choose_end", view, self.bot.choose_end)

    def _ask(self, question: str, view: SeatView, here: Callable[[SeatView], T]) -> T:
        pool = helper()
        try:
            return pool.submit(_decide, self.bot, question, view).result(timeout=TIMEOUT)  # type: ignore[return-value]
        except (BrokenProcessPool, FutureTimeout, OSError, RuntimeError) as error:  # the helper failed
            log.warning("the thinking helper did not answer (%s): deciding in the request", type(error).__name__)
            _drop(pool)
        except Exception as error:  # this decision failed there: here it answers, or raises the same
            log.warning("the thinking helper could not decide (%s): deciding in the request", type(error).__name__)
        return here(view)
