"""The peers' libraries load when a peer strategy first runs, not with the package:
every command and app process imports chunkers, and most never run a peer."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import ROOT

PEER_MODULES = ("langchain_text_splitters", "semchunk", "chonkie")

PROBE = """
import json, sys
import chunkers, lab.cli
before = [m for m in {peers} if m in sys.modules]
chunks = chunkers.chunk_with("# A\\n\\nOne two three.\\n\\nFour five six.", "recursive",
                             chunkers.ChunkOptions(size=20, overlap=0))
print(json.dumps({{"before": before, "after": "langchain_text_splitters" in sys.modules,
                  "chunks": len(chunks)}}))
"""


def test_importing_the_library_and_its_command_line_loads_no_peer_library():
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(peers=repr(PEER_MODULES))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["before"] == []
    # the recursive baseline still runs LangChain's own splitter once asked for
    assert got["after"] is True and got["chunks"] >= 1
