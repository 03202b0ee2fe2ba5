#!/usr/bin/env bash
# The whole test suite: formatting, the benchmark dashboard, lints, docs, unit/property/integration
# tests, the commands of the user guide, short fuzz runs of every parser, browser tests.
# Installs what it needs (the rustfmt and clippy components) and fails on the first error.
set -euo pipefail
cd "$(dirname "$0")"

# Each step says when it starts (seconds since the start), so a slow CI run shows where it went.
start=$SECONDS
step() { printf '\n==> [%4d s] %s\n' "$((SECONDS - start))" "$*"; }

if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    step "installing rustfmt and clippy"
    rustup component add rustfmt clippy
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "BENCHMARKS.md: every figure names its CPU (scripts/check-benchmarks.sh)"
./scripts/check-benchmarks.sh

step "no two files of a crate import each other (scripts/check-imports.py)"
python3 scripts/check-imports.py

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

# ABC reads the synthesized AIGER circuits in crates/zermelo-cli/tests/synth_cli.rs (the
# outside reader; the test is skipped with a note where it cannot be installed).
if ! command -v berkeley-abc >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    step "installing berkeley-abc (Debian's ABC, the outside AIGER reader of the synth tests)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq berkeley-abc >/dev/null) \
        || echo "note: berkeley-abc could not be installed; its test will be skipped"
fi

# cargo-nextest (on the project's machines) runs the tests of every binary side by side, where
# `cargo test` runs one binary after the other and leaves a core idle behind each long test
# (383 s against 418 s here); doctests are cargo's. Without nextest, plain `cargo test`.
if cargo nextest --version >/dev/null 2>&1; then
    step "cargo nextest run (unit, property and integration tests)"
    cargo nextest run --workspace --locked --no-fail-fast --status-level fail --final-status-level slow
    step "cargo test --doc"
    cargo test --workspace --locked --doc
else
    step "cargo test"
    cargo test --workspace --locked
fi

step "Python package: maturin build, mypy, pytest (scripts/python-tests.sh)"
./scripts/python-tests.sh

step "every command of the README and the user guide (scripts/doc-commands.sh)"
./scripts/doc-commands.sh

step "fuzz targets, ${FUZZ_SECONDS:-10} s each (scripts/fuzz.sh; longer runs: TESTING.md)"
./scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-10}"

step "browser tests (headless Chromium)"
./scripts/e2e.sh

step "all checks passed"
