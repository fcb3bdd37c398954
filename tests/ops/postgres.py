"""A throw-away PostgreSQL 15 server from Debian's binaries, for the production-instance test.

initdb/postgres refuse to run as root (CI runs as root), so as root the server runs as the system
user `rbpgtest` (created on first use with useradd) through `runuser`; otherwise as the caller.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from tests.ops.procs import Processes, free_port

USER = "rbpgtest"


def pg_bindir() -> Path | None:
    for cand in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(f"{cand}/initdb") and os.path.exists(f"{cand}/postgres"):
            return Path(cand)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _as_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER], check=True)
    return ["runuser", "-u", USER, "--", *cmd]


@contextmanager
def postgres_server(db_name: str = "dagster"):
    """Yield (host, port, user, password, db) of a fresh server; stops it and removes its files on exit."""
    bindir = pg_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL server binaries not found (Debian package postgresql-15)")
    base = Path(tempfile.mkdtemp(prefix="rb-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        _as_user(["true"])  # creates the user
        shutil.chown(base, USER)
        shutil.chown(sock, USER)
    os.chmod(base, 0o755)
    pw_file = base / "pw"
    password = "rb-pg-" + os.urandom(6).hex()
    pw_file.write_text(password)
    if os.geteuid() == 0:
        shutil.chown(pw_file, USER)
    port = free_port()
    try:
        subprocess.run(_as_user([str(bindir / "initdb"), "-D", str(data), "-U", "dagster", "--auth=scram-sha-256",
                                 f"--pwfile={pw_file}", "-E", "UTF8", "--locale=C"]),
                       check=True, capture_output=True, text=True, timeout=120)
        with Processes() as ps:
            srv = ps.start(_as_user([str(bindir / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(port),
                                     "-k", str(sock), "-c", "fsync=off", "-c", "max_connections=100"]),
                           base / "postgres.log")
            env = {**os.environ, "PGPASSWORD": password}
            deadline = time.time() + 60
            while time.time() < deadline:
                if not srv.alive():
                    raise RuntimeError(f"postgres exited: {srv.output()[-2000:]}")
                ok = subprocess.run([str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                                    capture_output=True).returncode == 0
                if ok:
                    break
                time.sleep(0.3)
            else:
                raise TimeoutError("postgres did not start")
            subprocess.run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "dagster", db_name],
                           env=env, check=True, capture_output=True, timeout=60)
            yield {"host": "127.0.0.1", "port": port, "user": "dagster", "password": password, "db": db_name}
    finally:
        shutil.rmtree(base, ignore_errors=True)
