"""Serializers of documents' data that apps above them show too."""

from rest_framework import serializers


class ReadingPositionSerializer(serializers.Serializer):
    turn = serializers.IntegerField(help_text="The turn the editor was at, from 0.")
    updated_at = serializers.DateTimeField()
