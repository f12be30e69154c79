"""The headers the page is served with, by build.py --serve and (in `_headers`) by a
static host: Cache-Control by the content-addressed layout, and index.html's CSP."""
from __future__ import annotations

import re

from .common import CONTENT_ADDRESSED, IMMUTABLE_PATTERN, ROOT

# Content-addressed files never change under their name: cache them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
# Everything else (the page, its modules, manifest.json) is revalidated on every load.
REVALIDATE = "no-cache"
_IMMUTABLE_PATH = re.compile(IMMUTABLE_PATTERN)


def cache_control(url_path: str) -> str:
    """The Cache-Control header for a path of the page."""
    return IMMUTABLE if _IMMUTABLE_PATH.search(url_path) else REVALIDATE


def headers_file() -> str:
    """The --dist folder's `_headers` (Netlify / Cloudflare Pages): the headers --serve sends.
    Those hosts join the values of every rule that matches a path, so the rules do not overlap."""
    revalidated = ["/", "/index.html", "/sw.js", "/app/*", "/static/vendor/manifest.json"]
    for entry in sorted((ROOT / "static").iterdir()):
        if entry.name != "vendor" and not entry.name.startswith("."):
            revalidated.append(f"/static/{entry.name}" + ("/*" if entry.is_dir() else ""))
    rules = [(path, REVALIDATE) for path in revalidated]
    rules += [(f"/static/vendor/{folder}/*", IMMUTABLE) for folder in CONTENT_ADDRESSED]
    lines = ["# Written by build.py --dist: the headers build.py --serve sends."]
    for path, cache in rules:
        lines += [path, f"  Cache-Control: {cache}", "  X-Content-Type-Options: nosniff",
                  f"  Content-Security-Policy: {page_csp()}"]
    return "\n".join(lines) + "\n"


def page_csp() -> str:
    """The policy index.html declares in its <meta> tag.

    Sent as a header too: a worker gets its policy from its own response, not
    from the page's <meta>, so this is what holds the worker to the same rules.
    """
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    m = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html)
    return m.group(1) if m else "default-src 'self'"
