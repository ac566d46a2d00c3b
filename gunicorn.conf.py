"""gunicorn reads this file from the directory it starts in (README, production).

The master stays a plain single-threaded process that loads nothing of the
app (the logger class is ``web/gunicorn_logger.py``, standard library only)
and forks each worker from that state: no control socket (its asyncio thread
in the master is stopped and started around every fork; we do not use
``gunicornc``, and its default path is shared by every gunicorn on the
machine).  Workers run the collector as Python does: no ``gc.freeze()``
hooks (under reloads they multiplied worker crashes, #37).
"""

control_socket_disable = True
