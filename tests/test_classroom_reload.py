"""The classroom app (Voila) at its kernel cap: a page's own shutdown request (sent by
Voila's page when the tab closes or reloads) is accepted, since the page now has the
``_xsrf`` cookie it sends, so its kernel ends at once and the same tab reloaded is served
instead of "the app is full"; a shutdown request without the cookie's value is still
refused (the XSRF check stays). The real Voila on 127.0.0.1; no culling in this test
(an hour idle), so only the page's request can free the place."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

from test_classroom import clean_env, voila_running  # noqa: F401 - a fixture


def browser():
    """An HTTP client keeping cookies, as a browser tab does; returns (open, jar)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar))

    def fetch(url: str, data: dict | None = None) -> tuple[int, str]:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        try:
            with opener.open(urllib.request.Request(url, data=body), timeout=90) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    return fetch, jar


def test_a_tab_reloaded_at_the_cap_is_served_because_its_old_kernel_is_shut_down(tmp_path, clean_env):  # noqa: F811
    with voila_running(tmp_path, kernel_idle=3600, cull_interval=3600, max_kernels=1) as url:
        fetch, jar = browser()
        status, page = fetch(url)
        assert status == 200 and "Classroom play" in page
        xsrf = next((c.value for c in jar if c.name == "_xsrf"), None)
        assert xsrf, [c.name for c in jar]  # the cookie Voila's page reads to send with its shutdown request
        kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page).group(1)
        # a request without the cookie's value is refused as before: the XSRF check stays
        assert fetch(f"{url}voila/api/shutdown/{kernel}", {"other": "1"})[0] == 403
        assert fetch(url)[0] == 503  # the cap (1): the kernel is still alive
        # the tab reloads: its page sends the shutdown request as Voila's script does (form field _xsrf)
        assert fetch(f"{url}voila/api/shutdown/{kernel}", {"_xsrf": xsrf})[0] == 204
        status, page = fetch(url)  # the reloaded tab is served, not told the app is full
        assert status == 200 and "Classroom play" in page and kernel not in page
