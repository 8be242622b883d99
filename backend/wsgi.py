"""WSGI entry point for gunicorn.

The URLconf is loaded here, as each web process starts, rather than on its first request:
loading it imports every view, service and the alignment engine (numpy, numba, gensim), 1.6 s
on the 2-core development machine, and every request queued behind a process's first one
would wait that long. What was loaded is then frozen out of the garbage collector's
generations: those hundreds of thousands of long-lived objects (modules, the engine's
tables) would otherwise be re-scanned by full collections during requests, which shows in
the tail of the response times."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018 (loading the URLconf is the point)
gc.freeze()
