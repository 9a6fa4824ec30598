"""warbench in the browser: the web workbench (issue 13).

:func:`warbench.web.app.create_app` builds the FastAPI application: the JSON API under
``/api`` (:mod:`warbench.web.api`), server-rendered pages (:mod:`warbench.web.pages`, Jinja2)
and the compiled TypeScript layer in ``static/``. ``warbench serve`` runs it with uvicorn.
Nothing here decides a rule: every answer comes from the rules code the CLI uses.
"""
