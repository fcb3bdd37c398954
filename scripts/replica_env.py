"""Start the OpenReview replica as a subprocess and give the environment that points the platform at it."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_replica(venues: str = "iclr-2024,iclr-2020", extra_args: tuple[str, ...] = ()):
    """Yield env vars (OPENREVIEW_* URLs and the replica account) for a replica subprocess."""
    ports = {"v1": free_port(), "v2": free_port(), "web": free_port()}
    cmd = [sys.executable, "-m", "openreview_replica", "serve", "--venues", venues, "--host", "127.0.0.1",
           "--port-v1", str(ports["v1"]), "--port-v2", str(ports["v2"]), "--port-web", str(ports["web"]),
           *extra_args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    banner: list[str] = []
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                if proc.poll() is not None:
                    raise RuntimeError("replica exited:\n" + "".join(banner))
                continue
            banner.append(line)
            if _ready("".join(banner)):
                break
        text = "".join(banner)
        user = re.search(r"(?:username|user)\S*\s*[:=]\s*(\S+)", text, re.I)
        pw = re.search(r"password\S*\s*[:=]\s*(\S+)", text, re.I)
        env = {"OPENREVIEW_API_V1_URL": f"http://127.0.0.1:{ports['v1']}",
               "OPENREVIEW_API_V2_URL": f"http://127.0.0.1:{ports['v2']}",
               "OPENREVIEW_WEB_URL": f"http://127.0.0.1:{ports['web']}",
               "OPENREVIEW_USERNAME": user.group(1) if user else "",
               "OPENREVIEW_PASSWORD": pw.group(1) if pw else "",
               "OPENREVIEW_MIN_INTERVAL_S": "0"}
        yield env
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _ready(text: str) -> bool:
    return bool(re.search(r"password\S*\s*[:=]", text, re.I))


if __name__ == "__main__":
    with running_replica() as env:
        for k, v in env.items():
            print(f"export {k}={v}")
        sys.stdout.flush()
        while True:
            time.sleep(3600)
