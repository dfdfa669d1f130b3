"""Chunk Lab for a class: several app processes behind nginx, each browser kept on one.

    python -m deploy.class_servers                      # 2 processes, http://127.0.0.1:8501
    python -m deploy.class_servers --processes 3 --address 0.0.0.0   # the room's network

One Streamlit process runs every session's Python on one core. This starts
``--processes`` app processes on loopback ports (never reachable from outside
the machine) and nginx in front of them on ``--address:--port``, with the
configuration in deploy/nginx-class.conf: websocket upgrades passed on, and a
cookie that keeps one browser on one process. Before nginx starts, each process
opens every lab's example link once (``warm``), so a class's first pages find
the imports done and the labs' results cached. Ctrl-C stops them all.
Needs nginx (Debian: ``apt-get install nginx``); see docs/app.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx-class.conf"
AFFINITY_COOKIE = "chunklab_process"  # the config's {{COOKIE}}: the key that picks a process


@dataclass(frozen=True)
class ClassSetup:
    url: str  # where the browsers go (nginx)
    app_urls: list[str]  # each app process, on loopback
    pids: list[int]  # the app processes
    warmed: dict[str, list[str]] = field(default_factory=dict)  # app URL -> links it ran


def nginx_path() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def nginx_config(prefix: Path, listen: str, app_ports: list[int]) -> str:
    """deploy/nginx-class.conf with its fields filled in."""
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in app_ports)
    return (
        TEMPLATE.read_text()
        .replace("{{PREFIX}}", str(prefix))
        .replace("{{LISTEN}}", listen)
        .replace("{{SERVERS}}", servers)
        .replace("{{COOKIE}}", AFFINITY_COOKIE)
    )


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float, what: str) -> None:
    """Return once the server at ``url`` answers its health check; RuntimeError (``what``
    did not start) when ``proc`` ends first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start")
        time.sleep(0.3)


def example_links() -> list[str]:
    """Every lab's page at its example settings (the "Set up this lab's example"
    button's; a lab without one, the notebook, at its name)."""
    from ui.present.urlstate import LAB_PRESETS, LAB_SLUGS

    return [
        f"{slug}?{urlencode(LAB_PRESETS[slug])}" if slug in LAB_PRESETS else slug
        for slug in LAB_SLUGS
    ]


def warm(url: str, what: str = "the app") -> list[str]:
    """Open every lab's example link once on the app at ``url`` (one session each, as
    a browser would), so the first students find the imports done and each lab's
    results in the process's caches; the links run. RuntimeError when a page fails.
    -- why -- a class opens its links at the same moment: on a cold process every one
    of those first runs imports and computes at once, and the first pages took 5 to
    13 s; a warm one only reads its caches --
    Without the light client's websocket library nothing is warmed: one line says so."""
    try:
        from deploy.light_client import LightClient
    except ImportError as e:
        print(
            f"{what}: not warmed ({e}; pip install -r requirements.txt); "
            "the first pages will be slower",
            file=sys.stderr,
        )
        return []
    done = []
    for link in example_links():
        c = LightClient(url, "/" + link, timeout_s=300)
        try:
            c.open()
        except Exception as e:  # noqa: BLE001 -- any failure: the page did not come
            raise RuntimeError(f"{what}: /{link} failed while warming: {e}") from e
        finally:
            c.close()
        if c.errors:
            raise RuntimeError(f"{what}: /{link} showed an error: {c.errors[0].splitlines()[0]}")
        done.append(link)
    return done


def stop(proc: subprocess.Popen) -> None:
    """End ``proc``: politely, then by force after ten seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@contextlib.contextmanager
def class_servers(
    processes: int = 2,
    address: str = "127.0.0.1",
    port: int | None = None,
    seconds: float = 120,
    log_dir: Path | None = None,
    warmed: bool = True,
) -> Iterator[ClassSetup]:
    """``processes`` app processes on loopback, each warmed (``warm``; not when
    ``warmed`` is False), then nginx on ``address:port`` (a free port when None) in
    front of them; stopped on leaving."""
    nginx = nginx_path()
    if nginx is None:
        raise RuntimeError("nginx not found: install it (Debian: apt-get install nginx)")
    procs: list[subprocess.Popen] = []
    with contextlib.ExitStack() as stack:
        prefix = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chunklab-class-")))
        prefix.chmod(0o755)  # nginx's workers may run as another user
        logs = log_dir or prefix

        def stop_all() -> None:
            for p in reversed(procs):
                stop(p)

        stack.callback(stop_all)
        ports = [free_port() for _ in range(processes)]
        for i, p in enumerate(ports):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "streamlit", "run", "app.py"]
                    + ["--server.port", str(p), "--server.address", "127.0.0.1"]
                    + ["--server.headless", "true"],
                    cwd=ROOT,
                    stdout=(logs / f"app-{i + 1}.log").open("w"),
                    stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )
            )
        app_urls = [f"http://127.0.0.1:{p}" for p in ports]
        for i, (url, proc) in enumerate(zip(app_urls, procs, strict=True)):
            wait_healthy(url, proc, seconds, f"app process {i + 1} (log: {logs}/app-{i + 1}.log)")
        links: dict[str, list[str]] = {}
        if warmed:  # the processes side by side: each runs its sessions on its own core
            with ThreadPoolExecutor(processes) as pool:
                names = [f"app process {i + 1}" for i in range(processes)]
                links = dict(zip(app_urls, pool.map(warm, app_urls, names), strict=True))
        listen_port = port or free_port(address)
        conf = prefix / "nginx.conf"
        conf.write_text(nginx_config(prefix, f"{address}:{listen_port}", ports))
        proxy = subprocess.Popen(
            [nginx, "-p", str(prefix), "-c", str(conf)],
            stdout=(logs / "nginx.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        procs.append(proxy)
        shown = "127.0.0.1" if address in ("0.0.0.0", "127.0.0.1") else address
        url = f"http://{shown}:{listen_port}"
        wait_healthy(url, proxy, 30, f"nginx (log: {logs}/nginx.log, {prefix}/error.log)")
        yield ClassSetup(url, app_urls, [p.pid for p in procs[:-1]], links)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=2, help="app processes (default 2)")
    ap.add_argument(
        "--address",
        default="127.0.0.1",
        help="where nginx listens (default 127.0.0.1, this machine only; 0.0.0.0 for the room)",
    )
    ap.add_argument("--port", type=int, default=8501, help="nginx's port (default 8501)")
    args = ap.parse_args(argv)
    if not 1 <= args.processes <= 16:
        print("--processes: between 1 and 16 (about one per core)", file=sys.stderr)
        return 2
    print(
        f"Starting {args.processes} app processes and opening every lab once on each "
        "(a minute or two)…",
        flush=True,
    )
    try:
        with class_servers(args.processes, args.address, args.port) as setup:
            print(
                f"Chunk Lab: {args.processes} processes behind nginx at "
                f"http://{args.address}:{args.port} (Ctrl-C stops them all)",
                flush=True,
            )
            print("processes: " + ", ".join(setup.app_urls), flush=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    except RuntimeError as e:
        print(str(e).splitlines()[0], file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
