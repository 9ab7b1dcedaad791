#!/usr/bin/env bash
# Schemathesis against a running workbench: fails on any 5xx or any response the OpenAPI schema does not allow.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure_venv.sh
WORKBENCH_DATA_DIR=$(mktemp -d)
export WORKBENCH_DATA_DIR DEBUG=1
export DJANGO_SUPERUSER_PASSWORD="fuzz-$(python -c 'import secrets; print(secrets.token_hex(8))')"
python manage.py migrate -v0
python manage.py createsuperuser --noinput --username fuzzer --email fuzzer@example.test >/dev/null
token=$(python manage.py agent_token fuzz-agent 2>/dev/null | tail -n 1)
python manage.py session_create --owner fuzzer --title "Schema fuzzing" --agent fuzz-agent >/dev/null
port=$(python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
daphne -b 127.0.0.1 -p "$port" workbench.asgi:application 2>"$WORKBENCH_DATA_DIR/daphne.log" &
server=$!
disown "$server"  # killed on exit below; no "Killed" notice from the shell
trap 'kill -9 $server 2>/dev/null; rm -rf "$WORKBENCH_DATA_DIR"' EXIT
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.2; done
schemathesis run "http://127.0.0.1:$port/api/schema/?format=json" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,response_schema_conformance \
  --max-examples "${FUZZ_EXAMPLES:-25}" --no-color "$@"
