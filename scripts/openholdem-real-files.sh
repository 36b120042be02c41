#!/bin/sh
# Counts how many of OpenHoldem's real .ohf files `alea holdem --lint` loads (issue 12).
#
# Usage: scripts/openholdem-real-files.sh CHECKOUT [ALEA]
#   CHECKOUT: a checkout of github.com/TheHighFish/openholdembot (14.0.2: refs/pull/149/head,
#             commit d1684a4a9); its files are GPL, so they are read in place, never copied here.
#   ALEA:     the binary (default: target/debug/alea).
# OpenHoldem 14 always loads its OpenPPL library (OpenPPL/OpenPPL_Library/*.ohf) with a bot, so
# each other file is linted as a profile of the library and that file; the library's own files
# count as loaded when the library alone loads. A file "loads" when lint reports no error.
# Prints one line per file (ok / FAIL and the first error), then the totals; with ALONE=1 each
# file is also linted alone.
set -u
checkout=${1:?usage: $0 CHECKOUT [ALEA]}
alea=${2:-target/debug/alea}
lib="$checkout/OpenPPL/OpenPPL_Library"
total=0
ok=0
own_ok=0
tmp=$(mktemp)
find "$checkout" -iname '*.ohf' -type f | LC_ALL=C sort > "$tmp"
first_error() { printf '%s\n' "$1" | grep -m1 -E 'error' | cut -c1-200; }
if lib_out=$("$alea" holdem --lint "$lib" 2>&1); then lib_ok=1; else lib_ok=0; fi
echo "library profile ($lib): $( [ $lib_ok = 1 ] && echo loads || echo "FAILS: $(first_error "$lib_out")")"
while IFS= read -r f; do
  total=$((total + 1))
  rel=${f#"$checkout"/}
  case "$f" in
    "$lib"/*)
      if [ $lib_ok = 1 ]; then ok=$((ok + 1)); echo "ok   $rel (library)"; else echo "FAIL $rel (library)"; fi
      continue ;;
  esac
  if out=$("$alea" holdem --lint "$lib" "$f" 2>&1); then
    ok=$((ok + 1))
    own_ok=$((own_ok + 1))
    echo "ok   $rel"
  else
    own=$(printf '%s\n' "$out" | grep -F -- "$f:" | grep -m1 'error' | cut -c1-200)
    if [ -z "$own" ]; then
      own_ok=$((own_ok + 1))
      echo "LIB  $rel: no error of its own; the library fails"
    else
      echo "FAIL $rel: ${own#"$f":}"
    fi
  fi
  if [ "${ALONE:-0}" = 1 ]; then
    if "$alea" holdem --lint "$f" >/dev/null 2>&1; then echo "     alone: ok"; else echo "     alone: FAIL"; fi
  fi
done < "$tmp"
rm -f "$tmp"
echo "files without an error of their own (the library's errors aside): $own_ok of the $total"
echo "loaded $ok of $total"
