#!/bin/sh
# System libraries that Python packages cannot ship: WeasyPrint needs Pango (and with
# it HarfBuzz, fontconfig) and a font; HarfBuzz-Subset makes its font subsetting fast
# (and future WeasyPrint versions require it). Chromium runs the studio's browser tests
# (Playwright drives the system's browser; it never downloads one). Installs them with
# apt-get only when missing.
set -e
missing=""
ldconfig -p 2>/dev/null | grep -q 'libpango-1.0.so' || missing="$missing libpango-1.0-0 libpangoft2-1.0-0"
ldconfig -p 2>/dev/null | grep -q 'libharfbuzz.so' || missing="$missing libharfbuzz0b"
ldconfig -p 2>/dev/null | grep -q 'libharfbuzz-subset.so' || missing="$missing libharfbuzz-subset0"
[ -d /usr/share/fonts/truetype/dejavu ] || missing="$missing fonts-dejavu-core"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing system libraries:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
else
    echo "warning: missing system libraries:$missing (install them with your package manager; WeasyPrint needs them for booklets)" >&2
fi
