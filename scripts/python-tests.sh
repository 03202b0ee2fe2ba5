#!/usr/bin/env bash
# The Python package (crates/zermelo-py): a virtual environment in target/pyenv with maturin,
# pytest, numpy, python-chess, mypy and py-aiger (an outside AIGER reader for the synthesis
# tests) from PyPI (installed when missing), the package built and
# installed into it by maturin (the `pytest` profile: release with opt-level 1, no debug
# information, which compiles in 2/3 of the time; `pip install` uses release), mypy
# --strict over the package, its stubs, the tests and the example, mypy's stubtest of the stubs
# against the built module, then pytest (with the doctests of the package).
# The same-answer tests run the `zermelo` binary: $ZERMELO_BIN, else target/debug/zermelo (built
# here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pyenv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
py="$venv/bin/python"
if ! "$py" -c 'import maturin, pytest, numpy, chess, mypy, aiger' >/dev/null 2>&1 \
    || [ ! -x "$venv/bin/maturin" ]; then
    "$py" -m pip install --quiet --disable-pip-version-check maturin pytest numpy chess mypy \
        py-aiger
fi

if [ -z "${ZERMELO_BIN:-}" ] && [ ! -x target/debug/zermelo ]; then
    cargo test --workspace --locked --no-run --quiet
fi

VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop --profile pytest --locked --quiet \
    --manifest-path crates/zermelo-py/Cargo.toml

(cd crates/zermelo-py && "../../$py" -m mypy --strict python/zermelo tests ../../examples/python)
# The stubs against the built module: every name, signature and class of zermelo._native.
"$py" -m mypy.stubtest zermelo._native
# The 6-piece table that the Rust suite's test generates (serve_cli.rs) serves the Python
# test of a 6-piece table too (tests/test_chess_six.py); without it that test generates one.
six=${CARGO_TARGET_DIR:-target}/tmp/six-piece
if [ -z "${ZERMELO_SIX_PIECE_TABLES:-}" ] && [ -f "$six/KQQQQvK.zdz" ]; then
    ZERMELO_SIX_PIECE_TABLES=$(cd "$six" && pwd)
    export ZERMELO_SIX_PIECE_TABLES
fi
"$py" -m pytest -q --doctest-modules crates/zermelo-py/tests crates/zermelo-py/python/zermelo "$@"
