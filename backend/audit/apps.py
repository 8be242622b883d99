from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "backend.audit"
    label = "audit"
    verbose_name = "Audit trail"
