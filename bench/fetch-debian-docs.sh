#!/usr/bin/env bash
# Real hyperlinked HTML for the benchmarks: Debian's documentation packages, unpacked into
# bench/data/sites/<package>/. Chinese sites (LibreOffice's help, GIMP's manual, LilyPond, the
# Debian Reference and FAQ, the New Maintainers' Guide, Debian Edu, LinuxCNC), about 3,500 pages,
# plus one English site (Python's docs) as an off-topic neighbourhood. Downloads once; later runs
# reuse what is there. Needs apt-get (Debian). Package names as arguments fetch just those
# (scripts/test-all.mjs fetches the few small ones the tests serve).
set -euo pipefail
cd "$(dirname "$0")"
PACKAGES=(libreoffice-help-zh-cn gimp-help-zh-cn lilypond-doc-html-zh debian-faq-zh-cn
  debian-reference-zh-cn debian-reference-zh-tw maint-guide-zh-cn maint-guide-zh-tw
  debian-edu-doc-zh-cn linuxcnc-doc-zh-cn python3.11-doc)
[ $# -gt 0 ] && PACKAGES=("$@")
mkdir -p data/debs data/sites
missing=()
for p in "${PACKAGES[@]}"; do
  [ -d "data/sites/$p" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "fetch-debian-docs: all ${#PACKAGES[@]} sites present"; exit 0; }
if ! apt-cache show "${missing[0]}" >/dev/null 2>&1; then
  echo "fetch-debian-docs: apt does not know ${missing[0]}; run 'apt-get update' (as root) first" >&2
  exit 1
fi
(cd data/debs && apt-get download -q "${missing[@]}")
for p in "${missing[@]}"; do
  deb=$(ls data/debs/"${p}"_*.deb | head -n1)
  dpkg -x "$deb" "data/sites/$p.tmp" && mv "data/sites/$p.tmp" "data/sites/$p"
  echo "fetch-debian-docs: $p: $(find "data/sites/$p" -name '*.htm*' | wc -l) HTML files"
done
