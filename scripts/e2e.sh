#!/usr/bin/env bash
# Browser tests of the visualiser and the tablebase page: `zermelo serve` on a free loopback port, driven in Debian's
# headless Chromium by playwright-core (crates/zermelo-server/e2e/run.mjs). Installs chromium
# with apt-get when /usr/bin/chromium is missing, and fails (never skips) when it cannot.
# Screenshots go to target/e2e/. The runner's last line is `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    echo "installing Debian's chromium"
    if ! command -v apt-get >/dev/null; then
        echo "error: /usr/bin/chromium is missing and there is no apt-get to install it" >&2
        exit 1
    fi
    install() {
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    }
    # A package whose set-up was interrupted (here or by an earlier run) makes apt refuse
    # everything until dpkg finishes configuring it: do that once, then try again.
    if ! install; then
        echo "apt-get failed; finishing interrupted package set-ups (dpkg --configure -a) and retrying"
        DEBIAN_FRONTEND=noninteractive dpkg --configure -a
        install
    fi
fi

mkdir -p target/e2e
(cd crates/zermelo-server/e2e && npm ci --no-audit --no-fund --loglevel=error)

# The binary `cargo test` builds (the test profile: optimised, with debug assertions), so
# ./test.sh compiles nothing more here (a dev build, or `cargo build -p zermelo-cli` with its
# own resolution of features, compiles every crate once more).
cargo test --workspace --locked --no-run --quiet
bin="${CARGO_TARGET_DIR:-target}"/debug/zermelo
# The 3-piece chess tables with their DTZ tables (KQvK, KRvK, ...: a few seconds)
# for the tablebase page's tests, made afresh each time (tables left by an older zermelo may
# be of an older format, which the server rightly refuses).
tables=target/e2e/tables
rm -rf "$tables"
"$bin" tb gen --all 3 --tables "$tables" -q >/dev/null
log=$(mktemp)
"$bin" serve --bind 127.0.0.1:0 --tables "$tables" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT

# The server prints `serving on http://127.0.0.1:PORT/` once it is listening.
url=""
for _ in $(seq 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; echo "error: zermelo serve exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "error: zermelo serve did not start" >&2; exit 1; }

EXPECT_TABLES=1 BASE_URL="$url" SHOT_DIR="$PWD/target/e2e" node crates/zermelo-server/e2e/run.mjs
