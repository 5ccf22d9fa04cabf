"""``edgerag serve``: one index (or several) for a whole team, over HTTP, in the dialects their
chat clients already speak (docs/serve.md).

    config.py          `ServeConfig`: the indexes served, host, port, key, limits; a key is
                       required to listen beyond this machine
    app.py             `create_app` (FastAPI) and `run` (uvicorn): the server put together
    guard.py           every request's first check: the API key, the body's size (401, 413)
    indexes.py         the served indexes, one model each (``edgerag:NAME``); retrieval behind a lock
    model_queue.py     one thread runs every model call, in order; a bounded line (503 when full)
    events.py          the model's thread joined to the event loop: streamed events, a disconnect
                       cancels the work
    chat.py            a chat request in either dialect → the question; follow-ups rewritten
                       into standalone questions; which client fields are accepted or refused
    answering.py       a question answered on the model's thread: plan line, text, `Reply` with
                       checked citations, references and real token counts
    openai_routes.py   ``/v1/models``, ``/v1/chat/completions`` (streamed or not)
    ollama_routes.py   ``/api/tags``, ``/api/version``, ``/api/show``, ``/api/chat``
    own_routes.py      ``/health``, ``/edgerag/…``: retrieval, documents, uploads, jobs, ledger, stats
    jobs.py            uploads and deletions as jobs, one at a time, kept on disk, resumed on restart
    write_job.py       the child process that runs one job under the index's writer lock
    errors.py          failures as a status and a message, in each dialect's shape
    web/               the web page at ``/``: ask, why, documents, tokens, the key's login
                       (its own map in web/__init__.py)

Imports point one way: the routes use answering, events, jobs and indexes; nothing here is
imported by the rest of edgerag. FastAPI and uvicorn come with the ``server`` extra
(``pip install 'edgerag[server]'``); without it, ``edgerag serve`` says so.
"""
