"""The bootstrap loop simulated end to end on the public_meetings corpus: a tool that drives
the real services (iterations, annotations, tuning) with simulated annotators, not a domain
of its own; `manage.py simulate_bootstrap` runs it. See docs/bootstrap.md."""
