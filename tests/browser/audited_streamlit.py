"""`python tests/browser/audited_streamlit.py run app.py ...`: Streamlit's command line
under an audit hook that writes every attempt to reach another machine (a socket
connect, a name lookup, a datagram sent) to the file named by CHUNK_LAB_NET_LOG,
one line each. Loopback and local (Unix) sockets are the machine itself and are
not written."""

from __future__ import annotations

import ipaddress
import os
import sys

_EVENTS = {"socket.connect", "socket.getaddrinfo", "socket.sendto", "socket.sendmsg"}
_LOCAL_NAMES = {"localhost", "", None}


def _is_local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if host in _LOCAL_NAMES:
        return True
    try:
        ip = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return False  # a name to look up: that lookup may leave the machine
    return ip.is_loopback or ip.is_unspecified


def _address_of(event: str, args: tuple) -> object:
    if event == "socket.getaddrinfo":
        return args[0]
    address = args[1] if event != "socket.sendmsg" else args[-1]
    return address[0] if isinstance(address, tuple) else None  # None: a Unix socket


def _hook(log_path: str):
    def hook(event: str, args: tuple) -> None:
        if event not in _EVENTS:
            return
        try:
            host = _address_of(event, args)
        except (IndexError, TypeError):
            host = repr(args)[:200]
        if not _is_local(host):
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(f"{event} {host!r}\n")

    return hook


if __name__ == "__main__":
    sys.addaudithook(_hook(os.environ["CHUNK_LAB_NET_LOG"]))
    from streamlit.web.cli import main

    sys.argv[0] = "streamlit"
    sys.exit(main())
