from rest_framework import serializers


class ServiceCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()


class WorkersCheckSerializer(ServiceCheckSerializer):
    count = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())


class HealthOutputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    version = serializers.CharField()
    database = ServiceCheckSerializer()
    broker = ServiceCheckSerializer()
    workers = WorkersCheckSerializer()
