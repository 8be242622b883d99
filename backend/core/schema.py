from drf_spectacular.openapi import AutoSchema


class TandemAutoSchema(AutoSchema):
    """Names nested serializers after their view (`AnnotationApi.InputSerializer` becomes
    `AnnotationApiInput`): the HackSoft layout gives every view an `InputSerializer`, and
    without the prefix their schema components would collide."""

    def get_serializer_name(self, serializer, direction) -> str:
        qualified = type(serializer).__qualname__
        return (
            qualified.replace(".", "")
            if "." in qualified
            else super().get_serializer_name(serializer, direction)
        )
