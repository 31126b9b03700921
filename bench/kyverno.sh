#!/usr/bin/env bash
# Copyright 2026 The apply-overrides Authors.
# SPDX-License-Identifier: Apache-2.0
#
# What Kyverno costs: the benchmark corpus of R resources and P Karmada
# OverridePolicies rendered by apply-overrides without and with two Kyverno
# ClusterPolicies (gen -kyverno; bench/cmd/gen/kyverno.go), and the Kyverno
# CLI applying the same two policies to the same resources, all in one
# 10 000-document file in one run. Each is run REPS times under
# /usr/bin/time -v, interleaved round-robin; apply-overrides' two runs,
# which take seconds where the CLI takes minutes, OURS_REPS times (REPS
# unless set), so that the overhead's median can rest on more rounds.
#
#   bench/kyverno.sh [R] [P] [REPS]    (make bench-kyverno R=10000 P=200 runs it)
#
# The CLI's input is the resources as apply-overrides renders them without
# the ClusterPolicies (Kyverno admits what Karmada's overrides produced),
# written as a YAML stream by cmd/items. Prints the medians of wall time,
# CPU time and peak RSS, the two ratios (apply-overrides with the policies
# against without them; apply-overrides with them against the CLI), the
# Kyverno rules applied (the CLI's "pass" count, and apply-overrides' own
# count: its rules applied with the policies less those without) and the
# cost per applied rule, the spread of the overhead round by round (the
# with and without runs of one round against each other); then cross-checks, object by object, every object
# apply-overrides emits against the CLI's mutated object, and exits 1 when
# any differs or the rule counts disagree.
#
# Environment:
#   KYVERNO_CLI      the Kyverno CLI (make bench-kyverno: hack/kyverno-cli.sh)
#   APPLY_OVERRIDES  the binary under test (default bin/apply-overrides)
#   OURS_REPS        rounds of apply-overrides' two runs (default REPS)
#   SEED (1), CLUSTER (member1), BENCH_WORK (/tmp/apply-overrides-peers), GO (go)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
R=${1:-1000}
P=${2:-50}
REPS=${3:-3}
OURS_REPS=${OURS_REPS:-$REPS}
SEED=${SEED:-1}
CLUSTER=${CLUSTER:-member1}
WORK=${BENCH_WORK:-/tmp/apply-overrides-peers}
GO=${GO:-go}
APPLY_OVERRIDES=${APPLY_OVERRIDES:-$HERE/../bin/apply-overrides}
KYVERNO_CLI=${KYVERNO_CLI:-}

BIN=$WORK/bin
TAG=r$R-p$P-s$SEED-$CLUSTER-kyverno
CORPUS=$WORK/corpus-$TAG
OUT=$WORK/out-$TAG

# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

if [ -z "$KYVERNO_CLI" ] || [ ! -x "$KYVERNO_CLI" ]; then
  log "!! KYVERNO_CLI is not an executable: run make bench-kyverno (it builds the CLI with hack/kyverno-cli.sh)"; exit 2
fi
if [ ! -x "$APPLY_OVERRIDES" ]; then
  log "!! $APPLY_OVERRIDES is not an executable (make build)"; exit 2
fi
ensure_gnu_time
build_and_generate -kyverno

log "== the CLI's input: the resources as apply-overrides renders them without the ClusterPolicies"
"$APPLY_OVERRIDES" <"$CORPUS/resourcelist.yaml" >"$OUT/admitted.yaml" 2>/dev/null
"$BIN/items" "$OUT/admitted.yaml" "$CORPUS/kyverno/resources.yaml"

# run PEER REP: one timed run; the output goes to $OUT/PEER.out, stderr to
# $OUT/PEER.err.REP, and a row to $OUT/results.tsv:
# peer rep wall_s user_s sys_s maxrss_KiB
run() {
  local peer=$1 rep=$2 t0 t1 rc=0
  local cmd=() in=/dev/null out=$OUT/$peer.out
  case $peer in
    without) cmd=("$APPLY_OVERRIDES"); in=$CORPUS/resourcelist.yaml ;;
    with) cmd=("$APPLY_OVERRIDES"); in=$CORPUS/resourcelist-kyverno.yaml ;;
    cli)
      # -o names a file only when it ends in .yaml: otherwise the CLI takes
      # it for a directory and writes one file per mutated resource.
      rm -rf "$OUT/cli.yaml"
      cmd=("$KYVERNO_CLI" apply "$CORPUS/kyverno/policies.yaml" --resource "$CORPUS/kyverno/resources.yaml" -o "$OUT/cli.yaml")
      out=$OUT/cli.log ;;
  esac
  t0=$(date +%s%N)
  /usr/bin/time -v -o "$OUT/$peer.time.$rep" "${cmd[@]}" <"$in" >"$out" 2>"$OUT/$peer.err.$rep" || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" != 0 ]; then
    log "!! $peer run $rep exited $rc:"; tail -5 "$OUT/$peer.err.$rep" >&2
    return 1
  fi
  record "$peer" "$rep" "$((t1 - t0))" "$OUT/$peer.time.$rep"
}

peers=(without with cli)
: >"$OUT/results.tsv"
loads=()
for ((i = 1; i <= REPS || i <= OURS_REPS; i++)); do
  for peer in "${peers[@]}"; do
    reps=$OURS_REPS
    [ "$peer" = cli ] && reps=$REPS
    [ "$i" -le "$reps" ] || continue
    loads+=("$(cut -d' ' -f1 /proc/loadavg)")
    run "$peer" "$i" || exit 1
    log "-- $peer run $i/$reps: $(tail -1 "$OUT/results.tsv" | cut -f3) s"
  done
done

# spread: the min, median and max of the numbers on stdin, signed.
spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%+.0f / %+.0f / %+.0f", v[1], m, v[NR] }'; }
cpu() { awk -F'\t' -v p="$1" '$1 == p { print $4 + $5 }' "$OUT/results.tsv" | median; }
# applied FILE: the rules apply-overrides reports applying.
applied() { grep -o 'applied [0-9]* override rule(s)' "$1" | awk '{ n += $2 } END { print n + 0 }'; }

ours=$(($(applied "$OUT/with.out") - $(applied "$OUT/without.out")))
cli_pass=$(grep -o '^pass: [0-9]*' "$OUT/cli.log" | awk '{ print $2 }' | tail -1)
{
  echo "# R=$R P=$P seed=$SEED cluster=$CLUSTER, $OURS_REPS runs of apply-overrides without and with, $REPS of the CLI, medians, interleaved"
  echo "# $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $("$GO" env GOVERSION)"
  echo "# load average (1 min) before each run: ${loads[*]}"
  echo "# corpus: $(stat -c %s "$CORPUS/resourcelist.yaml") bytes; the CLI's resources: $(stat -c %s "$CORPUS/kyverno/resources.yaml") bytes"
  echo "# Kyverno rules applied: $cli_pass by the CLI (pass), $ours by apply-overrides"
  echo
  echo "| run | wall (s) | min wall (s) | CPU (s) | peak RSS (MiB) |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for peer in "${peers[@]}"; do
    name=$peer
    case $peer in
      without) name="apply-overrides without the ClusterPolicies" ;;
      with) name="apply-overrides with them" ;;
      cli) name="kyverno apply (the CLI)" ;;
    esac
    awk -v p="$name" -v w="$(column "$peer" 3 | median)" -v wmin="$(column "$peer" 3 | sort -g | head -1)" \
      -v c="$(cpu "$peer")" -v r="$(column "$peer" 6 | median)" \
      'BEGIN { printf "| %s | %.3f | %.3f | %.2f | %.0f |\n", p, w, wmin, c, r / 1024 }'
  done
  echo
  awk -v ww="$(column with 3 | median)" -v wo="$(column without 3 | median)" -v wc="$(column cli 3 | median)" \
    -v cw="$(cpu with)" -v co="$(cpu without)" -v cc="$(cpu cli)" -v n="$ours" 'BEGIN {
      printf "Kyverno overhead: wall %+.0f %%, CPU %+.0f %% (apply-overrides with the ClusterPolicies against without them)\n", (ww / wo - 1) * 100, (cw / co - 1) * 100
      printf "apply-overrides with them against the CLI: wall %.2f ×, CPU %.2f ×\n", ww / wc, cw / cc
      if (n > 0) printf "per applied rule: %.0f µs of CPU, %.0f µs of wall\n", (cw - co) / n * 1e6, (ww - wo) / n * 1e6
    }'
  # The overhead round by round: each with run against the without run of
  # its round.
  awk -F'\t' '$1 == "without" { w[$2] = $3; c[$2] = $4 + $5 } $1 == "with" { W[$2] = $3; C[$2] = $4 + $5 }
    END { for (r in W) if (r in w) printf "%.2f\t%.2f\n", (W[r] / w[r] - 1) * 100, (C[r] / c[r] - 1) * 100 }' "$OUT/results.tsv" >"$OUT/rounds.tsv"
  printf "round by round (%d rounds): wall %s, CPU %s (min / median / max, %%)\n" "$(wc -l <"$OUT/rounds.tsv")" \
    "$(cut -f1 "$OUT/rounds.tsv" | spread)" "$(cut -f2 "$OUT/rounds.tsv" | spread)"
  echo
  echo "Cross-check (apply-overrides with the ClusterPolicies vs the CLI's mutated objects):"
  echo "  $("$BIN/crosscheck" -q -last "$OUT/cli.yaml" "$OUT/with.out" || true)"
} | tee "$OUT/summary.txt"

log "rows: $OUT/results.tsv; outputs: $OUT/*.out; summary: $OUT/summary.txt"
status=0
if ! "$BIN/crosscheck" -last "$OUT/cli.yaml" "$OUT/with.out" >"$OUT/crosscheck.txt"; then
  log "!! apply-overrides differs from the Kyverno CLI ($OUT/crosscheck.txt):"
  head -40 "$OUT/crosscheck.txt" >&2
  status=1
fi
if [ "$cli_pass" != "$ours" ]; then
  log "!! the CLI applied $cli_pass rules, apply-overrides $ours"
  status=1
fi
exit $status
