#!/usr/bin/env bash
# Instructions per execution of fuzz_iso_diff on a fixed input set: a figure
# that does not depend on the machine's load, to compare commits with (the
# exec/s of bench/fuzz_throughput.sh moves with the load and with the inputs
# a run happens to make).
#
# The inputs: bench/results/fuzz_iso_diff_units.hex.gz, one unit a line in
# hex (4,266 units: fuzz_iso_diff's 45 seeds and the corpus a 150-s run of
# the tree at a509a8a without sanitizers grew from them, -seed=1). Each
# unit is run once, in name order, by the libFuzzer binary's run-once mode
# (files as arguments), under valgrind --tool=callgrind counting only inside
# LLVMFuzzerTestOneInput; then the whole set a second time in the same
# process. Two figures per build:
#   cold  the first pass / N: every new finding is reduced and signed, as in
#         the first minutes of a campaign
#   warm  (two passes - one pass) / N: every signature already seen and the
#         localisation memo filled, the steady state of a long run
# and callgrind_annotate's per-function table of the warm pass (self and
# inclusive cost per execution) in WORK/<label>.{self,incl}.txt.
#
#   bash bench/fuzz_callgrind.sh                 # the working tree
#   bash bench/fuzz_callgrind.sh a17ff87 HEAD    # commits, each built in a git worktree
#
# Builds: the working tree in build/bench-fuzz-nosan (fuzz_throughput.sh's
# SANITIZE=OFF build), a commit in a worktree under WORK; both clang-14,
# libFuzzer, no sanitizers, -gdwarf-4 for the worktrees (valgrind 3.19 does
# not read clang's DWARF 5); the binary is stripped of its debug info before
# the run (the gnulib target's objects keep DWARF 5), function names come from
# the symbol table. WORK: env WORK, default a new /tmp/scn-fuzz-callgrind.*,
# kept (the profiles are there). A build takes a few minutes, each callgrind
# run two to four (about 50x native).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
units=$root/bench/results/fuzz_iso_diff_units.hex.gz
work=${WORK:-$(mktemp -d /tmp/scn-fuzz-callgrind.XXXXXX)}
mkdir -p "$work"
command -v valgrind >/dev/null || { echo "fuzz_callgrind.sh: valgrind is needed" >&2; exit 2; }

# the units as files named by their SHA-1 (as libFuzzer names them), and the
# argument list of one pass and of two
inputs=$work/inputs
if [ ! -d "$inputs" ]; then
  mkdir -p "$inputs"
  gzip -dc "$units" | /usr/bin/python3 -c '
import hashlib, sys, os
d = sys.argv[1]
for line in sys.stdin:
    b = bytes.fromhex(line.strip())
    with open(os.path.join(d, hashlib.sha1(b).hexdigest()), "wb") as f:
        f.write(b)
' "$inputs"
fi
find "$inputs" -type f -printf '%f\n' | LC_ALL=C sort >"$work/pass1.txt"
cat "$work/pass1.txt" "$work/pass1.txt" >"$work/pass2.txt"
n=$(wc -l <"$work/pass1.txt")

# BIN LABEL: the binary of the working tree or of a commit, stripped
build() {
  local rev=$1 bin
  if [ "$rev" = . ]; then
    local fb=$root/build/bench-fuzz-nosan
    if [ ! -f "$fb/CMakeCache.txt" ]; then
      cmake -S . -B "$fb" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSCN_SANITIZE=OFF -DSCN_FUZZ=ON >/dev/null
    fi
    cmake --build "$fb" -j2 --target fuzz_iso_diff >/dev/null
    bin=$fb/fuzz/fuzz_iso_diff
  else
    local wt=$work/tree-$rev
    [ -d "$wt" ] || git worktree add --detach "$wt" "$rev" >/dev/null 2>&1
    if [ ! -f "$wt/build/CMakeCache.txt" ]; then
      cmake -S "$wt" -B "$wt/build" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_FLAGS=-gdwarf-4 -DSCN_SANITIZE=OFF -DSCN_FUZZ=ON >/dev/null
    fi
    cmake --build "$wt/build" -j2 --target fuzz_iso_diff >/dev/null
    bin=$(find "$wt/build" -name fuzz_iso_diff -type f | head -1) # fuzz/, harness/fuzz/ before e7d7862
  fi
  objcopy --strip-debug "$bin" "$work/bin-$2"
  if [ "$rev" != . ]; then git worktree remove --force "$work/tree-$rev"; fi
}

# Ir inside LLVMFuzzerTestOneInput over the files of LIST (OUT: the profile)
collect() {
  local bin=$1 list=$2 out=$3 files
  mapfile -t files <"$list"
  (cd "$inputs" && SCN_FUZZ_CONTINUE=1 SCN_FINDINGS=/dev/null \
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=LLVMFuzzerTestOneInput \
    "$bin" "${files[@]}" >"$out.log" 2>&1) || { tail -5 "$out.log" >&2; exit 1; }
  local ran
  ran=$(grep -c '^Executed ' "$out.log" || true)
  [ "$ran" -eq "$(wc -l <"$list")" ] || { echo "fuzz_callgrind.sh: $ran of $(wc -l <"$list") inputs ran" >&2; exit 1; }
  sed -n 's/^==[0-9]*== Collected : //p' "$out.log"
}

# per-function Ir per execution of the warm pass (the two-pass profile less
# the one-pass profile), MODE self or incl
warm_table() {
  local label=$1 mode=$2 opt=()
  [ "$mode" = incl ] && opt=(--inclusive=yes)
  /usr/bin/python3 - "$n" "$work/$label.pass2.cg" "$work/$label.pass1.cg" "${opt[@]}" <<'EOF'
import collections, re, subprocess, sys
n, two, one, opt = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def profile(path):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", *opt, path],
                         capture_output=True, text=True, check=True).stdout
    d, on = collections.Counter(), False
    for line in out.splitlines():
        if "file:function" in line:
            on = True
        elif on and (m := re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)$", line)):
            name = re.sub(r"\s*\[[^\]]*\]$", "", m.group(2))
            d[name.split(":", 1)[1] if ":" in name else name] += int(m.group(1).replace(",", ""))
    return d
d = profile(two)
d.subtract(profile(one))
for name, ir in sorted(d.items(), key=lambda kv: -kv[1]):
    if ir >= 10 * n:  # 10 instructions per execution and more
        print(f"{ir / n:12.0f}  {name}")
EOF
}

printf '| build | units | cold: Ir per execution | warm: Ir per execution |\n|---|---|---|---|\n'
for rev in "${@:-.}"; do
  if [ "$rev" = . ]; then label=worktree; else label=$(git rev-parse --short "$rev"); fi
  build "$rev" "$label"
  one=$(collect "$work/bin-$label" "$work/pass1.txt" "$work/$label.pass1.cg")
  two=$(collect "$work/bin-$label" "$work/pass2.txt" "$work/$label.pass2.cg")
  warm_table "$label" self >"$work/$label.self.txt"
  warm_table "$label" incl >"$work/$label.incl.txt"
  awk -v l="$label" -v n="$n" -v a="${one//,/}" -v b="${two//,/}" \
    'BEGIN { printf "| %s | %d | %.0f | %.0f |\n", l, n, a / n, (b - a) / n }'
done
echo
echo "valgrind $(valgrind --version | sed 's/valgrind-//'), clang-14 libFuzzer without sanitizers; profiles in $work"
