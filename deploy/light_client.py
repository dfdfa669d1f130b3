"""A light client: one browser session's traffic with a Streamlit server, without a browser.

A browser tab running the app does four things with the server: it asks
`/_stcore/health` (which sets the XSRF cookie), opens the websocket
`/_stcore/stream` with the subprotocols `streamlit` and that cookie, sends a
`rerun_script` BackMsg carrying the page's query string, page name and the
widgets' values, and reads ForwardMsgs until `script_finished`. Each widget
change is another `rerun_script` with the new values. An upload asks for an
upload URL (`file_urls_request`), PUTs the file there, and reruns with the
file's description as the uploader's value. This class does the same with
Streamlit's own protobuf classes, so a benchmark can stand in for a classroom
of students with a few threads.

It keeps Streamlit's message cache as a browser does: each rerun lists the large
messages it holds, and the server sends a reference instead of any of them it would
send again unchanged (``received_bytes`` counts what came over the wire). Not done:
painting (the server's cost is the same).
"""

from __future__ import annotations

import http.cookies
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

XSRF_COOKIE = "_streamlit_xsrf"
FINISHED = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_SUCCESSFULLY")


class LightClientError(RuntimeError):
    """The server did not give this session what a browser would show."""


@dataclass
class LightClient:
    """One session on the app at ``url`` (``http://host:port``), opened on
    ``link`` (a path and query string, as in a shared link)."""

    url: str
    link: str
    timeout_s: float = 60.0
    cookies: dict[str, str] = field(default_factory=dict)
    widgets: dict[str, Any] = field(default_factory=dict)  # label -> the element's proto
    states: dict[str, WidgetState] = field(default_factory=dict)  # widget id -> what we set
    session_id: str = ""
    page_hash: str = ""
    query: str = ""
    page_name: str = ""
    errors: list[str] = field(default_factory=list)  # exceptions the app showed
    texts: list[str] = field(default_factory=list)  # the last run's Markdown, headings included
    held: dict[str, ForwardMsg] = field(default_factory=dict)  # the message cache, by hash
    received_bytes: int = 0  # what the server has sent this session, as sent
    references: int = 0  # messages the server sent as a reference to the cache
    _ws: Any = None

    def open(self) -> float:
        """Connect and run the link's page; seconds until the run finished."""
        t0 = time.perf_counter()
        self._get("/_stcore/health")
        parts = urlsplit(self.link)
        self.page_name = parts.path.strip("/")
        self.query = parts.query
        self._connect([])
        self.rerun()
        return time.perf_counter() - t0

    def _connect(self, session: list[str]) -> None:
        host = urlsplit(self.url).netloc
        xsrf = self.cookies.get(XSRF_COOKIE, "PLACEHOLDER_AUTH_TOKEN")
        self._ws = connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=["streamlit", xsrf, *session],  # type: ignore[list-item]
            origin=self.url,  # type: ignore[arg-type]
            additional_headers={"Cookie": self._cookie_header()} if self.cookies else None,
            open_timeout=self.timeout_s,
            max_size=None,
        ).__enter__()  # held open across calls; close() ends it

    def reconnect(self) -> float:
        """Drop the websocket and open a new one asking for the same session, as a
        browser does after a network blip; the server keeps the session (and its
        id) only if the new websocket reaches the process that holds it."""
        t0 = time.perf_counter()
        self.close()
        self.resume(self.session_id)
        return time.perf_counter() - t0

    def resume(self, session_id: str) -> None:
        """Open a websocket asking for session ``session_id`` and run the page; the
        session id the server answers with is ``self.session_id`` afterwards."""
        if not self.cookies:
            self._get("/_stcore/health")
        parts = urlsplit(self.link)
        self.page_name = self.page_name or parts.path.strip("/")
        self.query = self.query or parts.query
        self._connect([session_id])
        self.rerun()

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    def rerun(self) -> float:
        """Send the widgets' values (as a browser does after a change) and read the
        run's messages until it finishes; seconds taken."""
        t0 = time.perf_counter()
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = self.page_hash
        cs.page_name = "" if self.page_hash else self.page_name
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"{self.url}/{self.page_name}?{self.query}"
        for state in self.states.values():
            cs.widget_states.widgets.append(state)
        cs.cached_message_hashes.extend(self.held)
        self._ws.send(msg.SerializeToString())
        self._read_until_finished()
        return time.perf_counter() - t0

    def _read_until_finished(self) -> None:
        deadline = time.monotonic() + self.timeout_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LightClientError(f"no finished run within {self.timeout_s:.0f} s")
            fm = ForwardMsg()
            raw = self._ws.recv(timeout=left)
            self.received_bytes += len(raw)
            fm.ParseFromString(raw)
            if fm.WhichOneof("type") == "ref_hash":  # one the cache holds: read that one
                self.references += 1
                fm = self.held.get(fm.ref_hash, fm)
            elif fm.metadata.cacheable and fm.hash:
                self.held[fm.hash] = fm
            kind = fm.WhichOneof("type")
            if kind == "new_session":
                self.session_id = fm.new_session.initialize.session_id
                self.widgets.clear()
                self.texts.clear()
            elif kind == "navigation":
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = fm.page_info_changed.query_string
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                self._note_element(fm.delta.new_element)
            elif kind == "script_finished":
                if fm.script_finished == FINISHED:
                    return
                if fm.script_finished == ForwardMsg.ScriptFinishedStatus.Value(
                    "FINISHED_WITH_COMPILE_ERROR"
                ):
                    raise LightClientError("the app did not compile")

    def _note_element(self, element: Any) -> None:
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.errors.append(element.exception.message)
            return
        inner = getattr(element, kind, None) if kind else None
        body = getattr(inner, "body", None)
        if isinstance(body, str) and body:
            self.texts.append(body)
        label = getattr(inner, "label", None)
        if label and getattr(inner, "id", ""):
            self.widgets[label] = inner
            if getattr(inner, "set_value", False):  # the app set it: the browser takes it
                self.states.pop(inner.id, None)

    def widget(self, label_start: str) -> Any:
        """The widget of the last run whose label starts with ``label_start``."""
        for label, proto in self.widgets.items():
            if label.startswith(label_start):
                return proto
        raise LightClientError(f"no widget labelled {label_start!r} on the page")

    def value(self, label_start: str) -> list[float]:
        """A slider's value as the browser holds it: what this session set, else what
        the server last set (a run sends a value only when the app sets one), else
        the default."""
        w = self.widget(label_start)
        if w.id in self.states:
            return list(self.states[w.id].double_array_value.data)
        return list(w.value) if w.value else list(w.default)

    def set_number(self, label_start: str, value: float) -> None:
        """Set a slider (as a drag or an arrow key does)."""
        w = self.widget(label_start)
        state = WidgetState(id=w.id)
        state.double_array_value.data.append(value)
        self.states[w.id] = state

    def set_choice(self, label_start: str, shown: str) -> None:
        """Pick a selectbox option by the text it shows."""
        w = self.widget(label_start)
        self.states[w.id] = WidgetState(id=w.id, string_value=shown)

    def upload(self, label_start: str, name: str, data: bytes) -> None:
        """Upload ``data`` as file ``name`` to the uploader (the next rerun carries it)."""
        w = self.widget(label_start)
        req = BackMsg()
        req.file_urls_request.request_id = uuid.uuid4().hex
        req.file_urls_request.file_names.append(name)
        req.file_urls_request.session_id = self.session_id
        self._ws.send(req.SerializeToString())
        deadline = time.monotonic() + self.timeout_s
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(self._ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if fm.WhichOneof("type") == "file_urls_response":
                break
        urls = fm.file_urls_response.file_urls[0]
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"'
                f"\r\nContent-Type: text/markdown\r\n\r\n"
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        if XSRF_COOKIE in self.cookies:
            headers["X-Xsrftoken"] = self.cookies[XSRF_COOKIE]
        self._request(urls.upload_url, body, headers, "PUT")
        state = WidgetState(id=w.id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        self.states[w.id] = state

    # -- HTTP with the session's cookies, as a browser keeps them --
    def _cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _get(self, path: str) -> None:
        self._request(path, None, {}, "GET")

    def _request(self, path: str, body: bytes | None, headers: dict[str, str], method: str) -> None:
        url = path if path.startswith("http") else f"{self.url}{path}"
        if self.cookies:
            headers = {**headers, "Cookie": self._cookie_header()}
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=self.timeout_s) as r:
            r.read()
            for raw in r.headers.get_all("Set-Cookie") or []:
                jar = http.cookies.SimpleCookie()
                jar.load(raw)
                self.cookies.update({k: m.value for k, m in jar.items()})
