"""The Celery app: one code base for the embedded default and for production.

Which broker it talks to is the settings' business (``CELERY_BROKER_URL``); this module only
binds Celery to Django's settings and finds each app's ``tasks`` module. Workers start with
``celery --app backend worker`` (scripts/worker).
"""

import os
from pathlib import Path

from celery import Celery

from backend.core.broker_transport import use_for_filesystem_urls

use_for_filesystem_urls()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")

app = Celery("tandem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["worker"].add("backend.jobs.liveness:JobLiveness")


@app.on_after_configure.connect
def ensure_broker_folders(sender: Celery, **_: object) -> None:
    """The filesystem broker needs its folders before the first message is sent or read.
    Done once the configuration is read rather than at import, which may happen while the
    settings module is itself still importing (tests/settings.py imports backend.settings)."""
    if not sender.conf.broker_url.startswith("filesystem://"):
        return
    for key in ("data_folder_in", "data_folder_out", "control_folder", "processed_folder"):
        folder = sender.conf.broker_transport_options.get(key)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
