"""CLI: python -m openreview_replica serve --venues iclr-2024,iclr-2020 --port-v2 8802 --port-v1 8801 --port-web 8803"""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from . import ReplicaServer, build_fixtures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m openreview_replica")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="serve the replica until killed")
    s.add_argument("--venues", default="iclr-2024,iclr-2020")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--n-forums", type=int, default=32)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port-v2", type=int, default=8802)
    s.add_argument("--port-v1", type=int, default=8801)
    s.add_argument("--port-web", type=int, default=8803)
    s.add_argument("--max-page-size", type=int, default=1000)
    s.add_argument("--allow-anonymous", action="store_true")
    args = ap.parse_args(argv)

    fx = build_fixtures([v.strip() for v in args.venues.split(",") if v.strip()], seed=args.seed,
                        n_forums=args.n_forums, allow_anonymous=True if args.allow_anonymous else None)
    rep = ReplicaServer(fx, host=args.host, port=args.port_v2, port_v1=args.port_v1, port_web=args.port_web,
                        max_page_size=args.max_page_size).start()
    # The names the platform reads (reviewbench_assets/definitions.py: build_resources).
    print(f"OPENREVIEW_API_V2_URL={rep.api_v2_url}")
    print(f"OPENREVIEW_API_V1_URL={rep.api_v1_url}")
    print(f"OPENREVIEW_WEB_URL={rep.web_url}")
    print(f"OPENREVIEW_USERNAME={rep.username}")
    print(f"OPENREVIEW_PASSWORD={rep.password}")
    sys.stdout.flush()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    stop.wait()
    rep.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
