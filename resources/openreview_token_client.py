"""An openreview-py client of an earlier login's token, built without a request."""
from __future__ import annotations

import functools


class _ProfileNotRead:
    """openreview-py's constructor asks `GET /profiles?id=<user>` whenever it is given a token, for
    `client.profile`, which the client uses only to sign what it writes. Ours only read, so while
    the client is being built its profile lookup answers None: no request (one per client, three
    per run, asked again by every re-run of a killed run, issue 29.3)."""
    _built = False

    def get_profile(self, *args, **kwargs):
        if not self._built:
            return None
        return super().get_profile(*args, **kwargs)


@functools.cache
def _reading_class(cls):
    return type(f"Reading{cls.__name__}", (_ProfileNotRead, cls), {})


def token_client(cls, baseurl: str, token: str):
    """A client of an earlier login's token, built without the profile request."""
    client = _reading_class(cls)(baseurl=baseurl, token=token)
    client._built = True
    return client
