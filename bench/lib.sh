# Copyright 2026 The apply-overrides Authors.
# SPDX-License-Identifier: Apache-2.0
#
# What bench/run.sh and bench/kyverno.sh share; sourced, after they set
# HERE, GO, BIN, CORPUS, OUT, R, P, SEED and CLUSTER.

log() { printf '%s\n' "$*" >&2; }

# ensure_gnu_time installs Debian's time when /usr/bin/time -v is missing.
ensure_gnu_time() {
  if /usr/bin/time -v true >/dev/null 2>&1; then return; fi
  log "== installing GNU time (Debian package time)"
  local sudo=sudo
  if [ "$(id -u)" = 0 ]; then sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq time >/dev/null
}

# build_and_generate GEN_FLAGS...: builds the bench module into $BIN and
# generates a fresh corpus into $CORPUS (and an empty $OUT).
build_and_generate() {
  log "== building the bench module into $BIN"
  mkdir -p "$BIN"
  (cd "$HERE" && "$GO" build -trimpath -o "$BIN/" ./cmd/...)
  log "== generating $CORPUS"
  rm -rf "$CORPUS" "$OUT"
  mkdir -p "$OUT"
  "$BIN/gen" -resources "$R" -policies "$P" "$@" -seed "$SEED" -cluster "$CLUSTER" -out "$CORPUS"
}

# record PEER REP NS TIMEFILE [EXTRA]: appends to $OUT/results.tsv the row
# peer rep wall_s user_s sys_s maxrss_KiB [extra] of a run under
# /usr/bin/time -v that took NS nanoseconds.
record() {
  awk -v peer="$1" -v rep="$2" -v ns="$3" -v extra="${5:-}" '
    /User time \(seconds\)/     { user = $NF }
    /System time \(seconds\)/   { sys = $NF }
    /Maximum resident set size/ { rss = $NF }
    END {
      printf "%s\t%d\t%.4f\t%.2f\t%.2f\t%d", peer, rep, ns / 1e9, user, sys, rss
      if (extra != "") printf "\t%s", extra
      printf "\n" }' "$4" >>"$OUT/results.tsv"
}

# column PEER N: field N of PEER's rows; median: of the numbers on stdin.
column() { awk -F'\t' -v p="$1" -v c="$2" '$1 == p { print $c }' "$OUT/results.tsv"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
