"""``edgerag serve``: one index (or several) for a whole team, over HTTP, in the dialects their
chat clients already speak (docs/serve.md).

    config.py          `ServeConfig`: the indexes served, host, port, key, limits; a key is
                       required to listen beyond this machine
    app.py             `create_app` (FastAPI) and `run` (uvicorn): the server put together
    guard.py           every request's first check: the API key, the body's size (401, 413)
    indexes.py         the served indexes, one model each (``edgerag:NAME``); retrieval behind a lock
    model_queue.py     one thread runs every model call, questions in order and before client
                       tasks (a task that would hold a question up is answered in code); a
                       bounded line (503 when full)
    events.py          the model's thread joined to the event loop: streamed events, a disconnect
                       cancels the work
    chat.py            a chat request in either dialect → the question; follow-ups rewritten
                       into standalone questions; which client fields are accepted or refused
                       (tools left to the model: accepted, not obeyed)
    client_tasks.py    a client's housekeeping (Open WebUI's ``### Task:`` prompts) told apart,
                       and answered in code when questions wait
    answering.py       a question answered on the model's thread: plan line, text, `Reply` with
                       checked citations, references and real token counts
    openai_routes.py   ``/v1/models``, ``/v1/chat/completions`` (streamed or not), citations as
                       ``url_citation`` annotations
    ollama_routes.py   ``/api/tags``, ``/api/ps``, ``/api/version``, ``/api/show``, ``/api/chat``,
                       ``/api/generate``; errors in Ollama's shape
    passage_page.py    ``/passage/{index}/{chunk}``: a cited passage as a page, the answer marked,
                       its file behind it; links signed when the server has a key
    own_routes.py      ``/health``, ``/edgerag/…``: retrieval, documents, uploads, jobs, ledger, stats
    access_log.py      one line a request: method, path, status, seconds, model, tokens
    jobs.py            uploads and deletions as jobs, one at a time, kept on disk, resumed on restart
    write_job.py       the child process that runs one job under the index's writer lock
    errors.py          failures as a status and a message, in each dialect's shape
    web/               the web page at ``/``: ask, why, documents, tokens, the key's login
                       (its own map in web/__init__.py)

Imports point one way: the routes use answering, events, jobs and indexes; nothing here is
imported by the rest of edgerag. FastAPI and uvicorn come with the ``server`` extra
(``pip install 'edgerag[server]'``); without it, ``edgerag serve`` says so.
"""
