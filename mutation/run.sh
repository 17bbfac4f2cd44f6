#!/usr/bin/env bash
# The mutation-testing pass (docs/testing.md): mutate one module with Cosmic Ray and run the tests
# that guard it against each mutant, a seeded sample of the mutants where the module has too many.
#
#   bash mutation/run.sh MODULE [SAMPLE]
#
# MODULE names a config here (mutation/MODULE.toml: the file, its guarding tests, the per-mutant
# timeout); SAMPLE keeps that many mutants (default: all). The session is mutation/MODULE.sqlite
# (git ignores it); a run that was stopped goes on where it stopped when started again. It mutates
# the file in place, one mutant at a time, and puts it back: leave the tree alone while it runs,
# and check `git status` after a run that was killed. Outside CI, by hand, one module at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
module="$1"
sample="${2:-}"
config="mutation/$module.toml"
session="mutation/$module.sqlite"
bin=.venv/bin
if [ ! -f "$session" ]; then
    "$bin/cosmic-ray" init "$config" "$session"
    if [ -n "$sample" ]; then
        "$bin/python" mutation/sample.py "$session" "$sample"
    fi
fi
"$bin/cosmic-ray" exec "$config" "$session"
git diff --quiet -- "$(sed -n 's/^module-path = "\(.*\)"/\1/p' "$config")" || {
    echo "mutation/run.sh: the module is left mutated; git checkout it" >&2; exit 1; }
"$bin/cr-report" "$session" | tail -n 4
