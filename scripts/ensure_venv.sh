# Sourced by ./run and ./test: create .venv and install requirements.txt when it changed.
set -euo pipefail
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "CHAP Workbench needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2; exit 1; }
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.requirements.sha256"
wanted=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
  echo "$wanted" > "$stamp"
fi
export PATH="$PWD/$VENV/bin:$PATH"
