#!/bin/sh
# Counts how many of OpenHoldem's real .ohf files `alea holdem --lint` loads (issue 12).
#
# Usage: scripts/openholdem-real-files.sh CHECKOUT [ALEA]
#   CHECKOUT: a checkout of github.com/TheHighFish/openholdembot (14.0.2: refs/pull/149/head,
#             commit d1684a4a9); its files are GPL, so they are read in place, never copied here.
#   ALEA:     the binary (default: target/debug/alea).
# OpenHoldem 14 always loads, before the user's bot, its OpenPPL library (the 25 files of
# OpenPPL/OpenPPL_Library), the four files of bot_logic/DefaultBot and
# bot_logic/custom_function_library.ohf (CFormulaParser::ParseDefaultLibraries and
# LoadDefaultBot; Files_DLL: DefaultLogicDirectory, CustomLibraryPath). So each other file is
# linted as the profile of those and that file, in that order (a later definition replaces an
# earlier one, as in OH 14); the files of that default profile count as loaded when it loads.
# A file "loads" when lint reports no error.
# Prints one line per file (ok / FAIL and the first error), then the totals; with ALONE=1 each
# file is also linted alone.
set -u
checkout=${1:?usage: $0 CHECKOUT [ALEA]}
alea=${2:-target/debug/alea}
lib="$checkout/OpenPPL/OpenPPL_Library"
release="$checkout/##_OpenHoldem_Release_Directory_##/bot_logic"
# The default bot and the custom library, in OH 14's loading order, where the checkout has them.
set --
for d in DefaultBot/DefaultBot.ohf DefaultBot/Gecko_NL_6Max_FR_BSS.ohf DefaultBot/Termita_SNG.ohf \
         DefaultBot/Winngy_PT_Limit.ohf custom_function_library.ohf; do
  [ -f "$release/$d" ] && set -- "$@" "$release/$d"
done
is_default() { for d in "$@"; do [ "$d" = "$f" ] && return 0; done; return 1; }
total=0
ok=0
own_ok=0
tmp=$(mktemp)
find "$checkout" -iname '*.ohf' -type f | LC_ALL=C sort > "$tmp"
first_error() { printf '%s\n' "$1" | grep -m1 -E 'error' | cut -c1-200; }
if lib_out=$("$alea" holdem --lint "$lib" "$@" 2>&1); then lib_ok=1; else lib_ok=0; fi
echo "default profile (library, default bot, custom library): $( [ $lib_ok = 1 ] && echo loads || echo "FAILS: $(first_error "$lib_out")")"
while IFS= read -r f; do
  total=$((total + 1))
  rel=${f#"$checkout"/}
  case "$f" in
    "$lib"/*)
      if [ $lib_ok = 1 ]; then ok=$((ok + 1)); echo "ok   $rel (library)"; else echo "FAIL $rel (library)"; fi
      continue ;;
  esac
  if is_default "$@"; then
    if [ $lib_ok = 1 ]; then ok=$((ok + 1)); own_ok=$((own_ok + 1)); echo "ok   $rel (default profile)"; else echo "FAIL $rel (default profile)"; fi
    continue
  fi
  if out=$("$alea" holdem --lint "$lib" "$@" "$f" 2>&1); then
    ok=$((ok + 1))
    own_ok=$((own_ok + 1))
    echo "ok   $rel"
  else
    own=$(printf '%s\n' "$out" | grep -F -- "$f:" | grep -m1 'error' | cut -c1-200)
    if [ -z "$own" ]; then
      own_ok=$((own_ok + 1))
      echo "LIB  $rel: no error of its own; the default profile fails"
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
