"""The one exception a serializer raises on purpose."""


class NotApplicable(Exception):
    """The serializer cannot represent the dataset; the message says why."""
