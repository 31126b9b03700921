#!/usr/bin/env bash
# Copyright 2026 The apply-overrides Authors.
# SPDX-License-Identifier: Apache-2.0
#
# The side-by-side benchmark: apply-overrides and its peers on one generated
# corpus, each run REPS times under /usr/bin/time -v, interleaved
# round-robin so that drifts of the machine's speed hit every peer alike.
#
#   bench/run.sh [R] [P] [REPS]        (make bench-peers R=10000 P=200 runs it)
#
# R resources (default 1000), P OverridePolicies (default 50), REPS runs of
# each peer (default 5). Prints the median wall time, CPU time and peak RSS of
# each peer with ratios to identity, then cross-checks the outputs against
# Karmada's; exits 1 when apply-overrides' output differs from Karmada's.
#
# Environment:
#   PROPAGATION      PropagationPolicies in the corpus (default 0: none, and
#                    the corpus of earlier runs byte for byte); with N > 0 the
#                    corpus holds N PropagationPolicies, two
#                    ClusterPropagationPolicies and a fleet of three Clusters,
#                    and only identity and apply-overrides run: Karmada's
#                    override manager and the kustomize patches do not place,
#                    so those peers and the cross-check against Karmada are
#                    skipped with a note
#   PEERS            which peers, in order, or "all" (identity karmada
#                    kustomize apply-overrides); karmada-fake (Karmada on
#                    controller-runtime's fake client) runs only when named
#   APPLY_OVERRIDES  the binary under test (default: bin/apply-overrides of
#                    this checkout; `make bench-peers` builds it)
#   KUSTOMIZE        the kustomize binary (default: kustomize on PATH; the peer
#                    is skipped with a message when there is none)
#   KUSTOMIZE_REPS   runs of kustomize (default REPS; it is slow at large R)
#   CLUSTERS         a fleet of this many Clusters (needs PROPAGATION > 0;
#                    default 0: the fleet of three); the corpus then also
#                    holds fanout.yaml (data.render "*"), which the peer
#                    fanout (apply-overrides on it) reads. `make bench-fanout`
#                    runs PEERS="apply-overrides fanout", adds the fan-out's
#                    cost per extra cluster and checks its output against one
#                    run per cluster (cmd/fanoutcheck); exits 1 when they differ
#   SEED (1), CLUSTER (member1), BENCH_WORK (/tmp/apply-overrides-peers), GO (go)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
R=${1:-1000}
P=${2:-50}
REPS=${3:-5}
KUSTOMIZE_REPS=${KUSTOMIZE_REPS:-$REPS}
SEED=${SEED:-1}
CLUSTER=${CLUSTER:-member1}
WORK=${BENCH_WORK:-/tmp/apply-overrides-peers}
GO=${GO:-go}
APPLY_OVERRIDES=${APPLY_OVERRIDES:-$HERE/../bin/apply-overrides}
KUSTOMIZE=${KUSTOMIZE:-kustomize}
PEERS=${PEERS:-all}
PROPAGATION=${PROPAGATION:-0}
CLUSTERS=${CLUSTERS:-0}
if [ "$PEERS" = all ]; then PEERS="identity karmada kustomize apply-overrides"; fi

BIN=$WORK/bin
# The directories of runs without placement keep their earlier names.
TAG=r$R-p$P-s$SEED-$CLUSTER
if [ "$PROPAGATION" != 0 ]; then TAG=$TAG-pp$PROPAGATION; fi
if [ "$CLUSTERS" != 0 ]; then TAG=$TAG-n$CLUSTERS; fi
CORPUS=$WORK/corpus-$TAG
OUT=$WORK/out-$TAG
RL=$CORPUS/resourcelist.yaml

# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
ensure_gnu_time

peers=()
for peer in $PEERS; do
  if [ "$PROPAGATION" != 0 ] && [ "$peer" != identity ] && [ "$peer" != apply-overrides ] && [ "$peer" != fanout ]; then
    log "-- $peer: skipped, PROPAGATION=$PROPAGATION (it does not place resources on clusters; only identity and apply-overrides run)"
    continue
  fi
  case $peer in
    identity | karmada | karmada-fake) ;;
    kustomize)
      if ! command -v "$KUSTOMIZE" >/dev/null; then
        log "-- kustomize: no $KUSTOMIZE on PATH, skipped (go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2)"
        continue
      fi ;;
    apply-overrides | fanout)
      if [ ! -x "$APPLY_OVERRIDES" ]; then
        log "!! $peer: $APPLY_OVERRIDES is not an executable (make build)"; exit 2
      fi
      if [ "$peer" = fanout ] && [ "$CLUSTERS" = 0 ]; then
        log "!! fanout: set CLUSTERS (and PROPAGATION) for a fleet corpus, e.g. make bench-fanout"; exit 2
      fi ;;
    *) log "!! unknown peer $peer (identity karmada karmada-fake kustomize apply-overrides fanout)"; exit 2 ;;
  esac
  peers+=("$peer")
done

# Only the commands the peers need: Karmada's takes minutes to build.
cmds=(./cmd/gen ./cmd/crosscheck)
for peer in "${peers[@]}"; do
  case $peer in
    identity) cmds+=(./cmd/identity) ;;
    karmada | karmada-fake) cmds+=(./cmd/karmada) ;;
    fanout) cmds+=(./cmd/fanoutcheck) ;;
  esac
done
log "== building ${cmds[*]} of the bench module into $BIN"
mkdir -p "$BIN"
(cd "$HERE" && "$GO" build -trimpath -o "$BIN/" $(printf '%s\n' "${cmds[@]}" | sort -u))

log "== generating $CORPUS"
rm -rf "$CORPUS" "$OUT"
mkdir -p "$OUT"
"$BIN/gen" -resources "$R" -policies "$P" -propagation "$PROPAGATION" -clusters "$CLUSTERS" -seed "$SEED" -cluster "$CLUSTER" -out "$CORPUS"

# run PEER REP: one timed run; the output goes to $OUT/PEER.out, stderr to
# $OUT/PEER.err.REP, and a row to $OUT/results.tsv:
# peer rep wall_s user_s sys_s maxrss_KiB output_bytes
run() {
  local peer=$1 rep=$2 t0 t1 rc=0
  local cmd=() in=$RL
  case $peer in
    identity) cmd=("$BIN/identity") ;;
    karmada) cmd=("$BIN/karmada" -client cache -cluster "$CLUSTER" -timing) ;;
    karmada-fake) cmd=("$BIN/karmada" -client fake -cluster "$CLUSTER" -timing) ;;
    kustomize) cmd=("$KUSTOMIZE" build "$CORPUS/kustomize") ;;
    apply-overrides) cmd=("$APPLY_OVERRIDES") ;;
    fanout) cmd=("$APPLY_OVERRIDES") in=$CORPUS/fanout.yaml ;;
  esac
  t0=$(date +%s%N)
  /usr/bin/time -v -o "$OUT/$peer.time.$rep" "${cmd[@]}" <"$in" >"$OUT/$peer.out" 2>"$OUT/$peer.err.$rep" || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" != 0 ]; then
    log "!! $peer run $rep exited $rc:"; tail -5 "$OUT/$peer.err.$rep" >&2
    return 1
  fi
  record "$peer" "$rep" "$((t1 - t0))" "$OUT/$peer.time.$rep" "$(stat -c %s "$OUT/$peer.out")"
}

: >"$OUT/results.tsv"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
most=$REPS
if [ "$KUSTOMIZE_REPS" -gt "$most" ]; then most=$KUSTOMIZE_REPS; fi
for ((i = 1; i <= most; i++)); do
  for peer in "${peers[@]}"; do
    n=$REPS
    if [ "$peer" = kustomize ]; then n=$KUSTOMIZE_REPS; fi
    if [ "$i" -gt "$n" ]; then continue; fi
    run "$peer" "$i" || exit 1
    log "-- $peer run $i/$n: $(tail -1 "$OUT/results.tsv" | cut -f3) s"
  done
done

ran() { printf '%s\n' "${peers[@]}" | grep -qx "$1"; }

{
  k=""
  if ran kustomize && [ "$KUSTOMIZE_REPS" != "$REPS" ]; then k=" (kustomize $KUSTOMIZE_REPS)"; fi
  pp=""
  if [ "$PROPAGATION" != 0 ]; then pp=" PROPAGATION=$PROPAGATION"; fi
  if [ "$CLUSTERS" != 0 ]; then pp+=" CLUSTERS=$CLUSTERS"; fi
  echo "# R=$R P=$P$pp seed=$SEED cluster=$CLUSTER, $REPS runs each$k, medians, interleaved"
  echo "# load average before the runs: $LOAD; after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $("$GO" env GOVERSION)"
  echo "# corpus: $(stat -c %s "$RL") bytes; $(grep '^kustomize patches' "$CORPUS/manifest.txt")"
  echo
  echo "| peer | wall (s) | min wall (s) | CPU (s) | peak RSS (MiB) | wall × identity | RSS × identity |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  idw=nan idr=nan
  if ran identity; then idw=$(column identity 3 | median); idr=$(column identity 6 | median); fi
  for peer in "${peers[@]}"; do
    w=$(column "$peer" 3 | median)
    wmin=$(column "$peer" 3 | sort -g | head -1)
    cpu=$(awk -F'\t' -v p="$peer" '$1 == p { print $4 + $5 }' "$OUT/results.tsv" | median)
    rss=$(column "$peer" 6 | median)
    awk -v p="$peer" -v w="$w" -v wmin="$wmin" -v c="$cpu" -v r="$rss" -v iw="$idw" -v ir="$idr" 'BEGIN {
      xw = (iw == "nan") ? "-" : sprintf("%.2f", w / iw)
      xr = (ir == "nan") ? "-" : sprintf("%.2f", r / ir)
      printf "| %s | %.3f | %.3f | %.2f | %.0f | %s | %s |\n", p, w, wmin, c, r / 1024, xw, xr }'
  done
  if ran karmada && ran apply-overrides; then
    awk -v a="$(column apply-overrides 3 | median)" -v k="$(column karmada 3 | median)" \
      'BEGIN { printf "\napply-overrides takes %.2f × karmada'"'"'s wall time.\n", a / k }'
  fi
  for peer in karmada karmada-fake; do
    if ran "$peer"; then
      line="$peer phases (median):"
      for phase in parse load apply serialize; do
        line+=" $phase $(cat "$OUT/$peer".err.* | grep -o " $phase=[0-9.]*" | cut -d= -f2 | median | xargs printf "%.3f") s"
      done
      echo "$line; $(grep -h -o 'overridden=[0-9]*' "$OUT/$peer.err.1")"
    fi
  done
  echo
  echo "Cross-checks (object by object; config.kubernetes.io/* annotations and Karmada's objects ignored):"
  if ran identity; then
    echo "  identity vs the input:        $("$BIN/crosscheck" -q "$CORPUS/resources.yaml" "$OUT/identity.out" || true)"
  fi
  for peer in karmada-fake kustomize apply-overrides; do
    if ran karmada && ran "$peer"; then
      printf '  %-29s %s\n' "$peer vs karmada:" "$("$BIN/crosscheck" -q "$OUT/karmada.out" "$OUT/$peer.out" || true)"
    fi
  done
  if [ "$PROPAGATION" != 0 ]; then
    echo "  apply-overrides vs karmada:   skipped: PROPAGATION=$PROPAGATION, and Karmada's override manager does not place"
  fi
  if ran apply-overrides && ran fanout; then
    echo
    awk -F'\t' -v n="$CLUSTERS" -v ws="$(column apply-overrides 3 | median)" -v wf="$(column fanout 3 | median)" \
      -v cs="$(awk -F'\t' '$1 == "apply-overrides" { print $4 + $5 }' "$OUT/results.tsv" | median)" \
      -v cf="$(awk -F'\t' '$1 == "fanout" { print $4 + $5 }' "$OUT/results.tsv" | median)" \
      -v rs="$(column apply-overrides 6 | median)" -v rf="$(column fanout 6 | median)" 'BEGIN {
      printf "fan-out over %d clusters vs one cluster: wall × %.2f, CPU × %.2f, peak RSS × %.2f\n", n, wf / ws, cf / cs, rf / rs
      pw = (wf - ws) / (n - 1); pc = (cf - cs) / (n - 1); pr = (rf - rs) / (n - 1) / 1024
      printf "per extra cluster: wall %.3f s, CPU %.3f s, peak RSS %.1f MiB; extrapolated to 1000 clusters: wall %.0f s, CPU %.0f s, peak RSS %.0f MiB\n", pw, pc, pr, ws + 999 * pw, cs + 999 * pc, rs / 1024 + 999 * pr }'
    fanout_ok=0
    "$BIN/fanoutcheck" -bin "$APPLY_OVERRIDES" -input "$RL" "$OUT/fanout.out" >"$OUT/fanoutcheck.txt" || fanout_ok=$?
    echo "  fanout vs one run per cluster: $(tail -1 "$OUT/fanoutcheck.txt")"
    echo "$fanout_ok" >"$OUT/fanoutcheck.status"
  fi
} | tee "$OUT/summary.txt"

log "rows: $OUT/results.tsv; outputs: $OUT/*.out; summary: $OUT/summary.txt"
if ran karmada && ran apply-overrides && ! "$BIN/crosscheck" "$OUT/karmada.out" "$OUT/apply-overrides.out" >"$OUT/crosscheck.txt"; then
  log "!! apply-overrides differs from karmada ($OUT/crosscheck.txt):"
  head -40 "$OUT/crosscheck.txt" >&2
  exit 1
fi
if ran apply-overrides && ran fanout && [ "$(cat "$OUT/fanoutcheck.status")" != 0 ]; then
  log "!! the fan-out output differs from one run per cluster ($OUT/fanoutcheck.txt):"
  head -40 "$OUT/fanoutcheck.txt" >&2
  exit 1
fi
