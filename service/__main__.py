from service.cli import run

raise SystemExit(run())
