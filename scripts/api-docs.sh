#!/usr/bin/env bash
# api-docs: build the API reference of the installed headers (include/cuprobe/) with doxygen
# (docs/Doxyfile) into OUTDIR (default build/api-docs) and check that every public entity has a
# sentence:
#
#   bash scripts/api-docs.sh [--input DIR] [OUTDIR]      reference in OUTDIR/html/index.html
#
# Public: the entities of namespace cuprobe and its sub-namespaces but `detail` (classes,
# structs, functions, enums, type aliases, variables and constants, public and protected
# members) in every header, detail/ folders included, but the two implementation-only ones that
# docs/Doxyfile excludes; and the CUPROBE_* macros; an explicit specialization of a class template
# is covered by the template's sentence (docs/Doxyfile says why). Each undocumented entity is
# printed as "file:line: name (kind)" and the exit status is 1; else 0. Exit 77 (CTest's
# "skipped"): doxygen is not installed. --input DIR documents DIR instead of the library
# (host.api_docs_catches proves that the check fails, on tests/docs/fixture_api/). Doxygen's
# full log: OUTDIR/warnings.log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
input=""
if [ "${1:-}" = "--input" ]; then
  input="$(cd "$2" && pwd)"
  shift 2
fi
out="${1:-$root/build/api-docs}"
if ! command -v doxygen >/dev/null; then
  echo "api-docs: doxygen is not installed, so the API reference is not built and not checked:" \
    "skipped (apt-get install doxygen, or bash scripts/setup-tests.sh)"
  exit 77
fi
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
case "$out/" in
  "$root"/*)  # inside the checkout: only where git ignores it (build/), never among the sources
    if ! git -C "$root" check-ignore -q "$out" 2>/dev/null; then
      echo "api-docs: $out is in the source tree; give a build folder (default build/api-docs)"
      exit 1
    fi ;;
esac
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -rf "$out/html" "$out/warnings.log"

# docs/Doxyfile reads its paths from the repository root and the output folder from
# CUPROBE_API_DOCS_OUT; a later assignment on stdin replaces the Doxyfile's INPUT.
cd "$root"
export CUPROBE_API_DOCS_OUT="$out"
{
  cat docs/Doxyfile
  if [ -n "$input" ]; then echo "INPUT = \"$input\""; fi
} | doxygen - >"$out/doxygen.log" 2>&1 || {
  cat "$out/doxygen.log"
  echo "api-docs: doxygen failed"
  exit 1
}

# One line per undocumented public entity: "file:line: qualified name (kind)". Doxygen reports a
# member once per scope it is listed in (its namespace, its file, a specialization of its class),
# so each file:line:member is printed once.
undocumented="$(awk -v root="$root/" '
  / warning: (Member|Compound) .* is not documented\.$/ {
    split($0, at, ": warning: ")
    where = at[1]
    if (index(where, root) == 1) where = substr(where, length(root) + 1)
    text = at[2]
    sub(/ is not documented\.$/, "", text)
    if (text ~ /^Compound /) {
      name = substr(text, 10)
      if (name !~ /^cuprobe(::|$)/ || name ~ /</) next
      member = name; kind = "class"
    } else if (match(text, / \([a-z ]+\) of (namespace|class|struct|union|file) /)) {
      member = substr(text, 8, RSTART - 8)
      kind = substr(text, RSTART + 2)
      sub(/\).*/, "", kind)
      scope = substr(text, RSTART + RLENGTH)
      split(substr(text, RSTART + 1, RLENGTH - 1), s, " of ")
      scope_kind = s[2]; sub(/ .*/, "", scope_kind)
      if (scope_kind == "file") {
        if (member !~ /^CUPROBE_/) next  # a macro of cuprobe; nothing else at file scope is public
        name = member
      } else if (scope ~ /^cuprobe(::|$)/ && scope !~ /</) {
        name = scope "::" member
      } else {
        next
      }
    } else {
      next
    }
    key = where SUBSEP member
    if (key in seen) next
    seen[key] = 1
    print where ": " name " (" kind ")"
  }' "$out/warnings.log")"

pages="$(find "$out/html" -name '*.html' | wc -l)"
other="$(grep ': warning: ' "$out/warnings.log" | grep -vc 'is not documented\.$' || true)"
if [ -n "$undocumented" ]; then
  echo "$undocumented"
  n="$(printf '%s\n' "$undocumented" | wc -l | tr -d ' ')"
  if [ "$n" = 1 ]; then what="entity"; else what="entities"; fi
  echo "api-docs: FAILED: $n undocumented public $what (above: file:line: name); give each a" \
    "/// sentence (the full doxygen log: $out/warnings.log)"
  exit 1
fi
if [ "$other" != 0 ]; then
  echo "api-docs: doxygen wrote $other other warnings (not about missing sentences):" \
    "$out/warnings.log"
fi
echo "api-docs: $pages pages, 0 undocumented public entities, reference in $out/html/index.html"
