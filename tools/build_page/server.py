"""build.py --serve: a small static server that serves only the page's files, with the
MIME types Pyodide needs and the headers a static host gets from `_headers`."""
from __future__ import annotations

import functools
import http.server
import posixpath
import urllib.parse
from pathlib import Path

from .common import PAGE_PATHS
from .headers import cache_control, page_csp

class PageHandler(http.server.SimpleHTTPRequestHandler):
    """Serves only the page's files, with the MIME types Pyodide needs."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json",
        ".wasm": "application/wasm",  # required for WebAssembly.instantiateStreaming
        ".zip": "application/zip",
        ".whl": "application/zip",  # a wheel is a zip file
        ".svg": "image/svg+xml",
        ".ico": "image/x-icon",
    }
    quiet = True
    csp = "default-src 'self'"

    def is_page_path(self) -> bool:
        # Normalise first, as translate_path will: /static/../build.py is not the page.
        path = posixpath.normpath(urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0]))
        return path == "/" or path.lstrip("/").split("/", 1)[0] in PAGE_PATHS

    def do_GET(self):
        if self.is_page_path():
            super().do_GET()
        else:
            self.send_error(404, "not part of the page")

    def do_HEAD(self):
        if self.is_page_path():
            super().do_HEAD()
        else:
            self.send_error(404, "not part of the page")

    def end_headers(self):
        # Content-addressed vendored files for a year; the rest revalidated, so an
        # edited module or a new manifest (naming new vendored files) is never stale.
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        self.send_header("Cache-Control", cache_control(posixpath.normpath(path)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def serve(directory: Path, host: str, port: int, verbose: bool) -> None:
    handler = functools.partial(PageHandler, directory=str(directory))
    PageHandler.quiet = not verbose
    PageHandler.csp = page_csp()
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        actual = server.server_address[1]
        shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
        # Tests read this line to find the port; keep its shape.
        print(f"Serving chunkwise on http://{shown}:{actual}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
