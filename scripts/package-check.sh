#!/usr/bin/env bash
# Checks a Debian package of Reduction Lab (scripts/package.sh made it):
#   scripts/package-check.sh DEB
# lintian finds no error; it holds the program, its desktop entry, icon, metainfo, man page and
# copyright, and neither the driver's libcuda nor a dependency on it; the program unpacked from
# it (dpkg -x, no root needed) prints its version, lists the catalog, traces on the CPU model and
# draws a first frame headless. With CI=true or REDLAB_PACKAGE_INSTALL=1 (root or sudo) it is also
# installed with apt, run from /usr/bin, removed, and nothing of it may be left.
set -euo pipefail
deb=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "package-check: $*" >&2; exit 1; }

echo "== lintian $(basename "$deb")"
lintian --fail-on error --tag-display-limit 0 "$deb" || fail "lintian found errors"

echo "== contents and dependencies"
dpkg-deb -c "$deb" | awk '{print $6}' > "$work/files"
for f in ./usr/bin/reduction-lab ./usr/share/applications/reduction-lab.desktop \
  ./usr/share/icons/hicolor/scalable/apps/reduction-lab.svg \
  ./usr/share/metainfo/io.github.reduction_lab.ReductionLab.metainfo.xml \
  ./usr/share/man/man1/reduction-lab.1.gz ./usr/share/doc/reduction-lab/copyright; do
  grep -qx "$f" "$work/files" || fail "the package lacks $f"
done
! grep -q 'libcuda\.so' "$work/files" || fail "the package holds the driver's libcuda"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
! echo "$depends" | grep -qi 'cuda\|nvidia' || fail "the package depends on the CUDA driver or toolkit"

# Runs the program at $1 as a user would: version, catalog, a trace, a first frame headless.
run_program() {
  local bin=$1 where=$2
  "$bin" --version | tee "$work/version-$where"
  grep -q "^reduction-lab $(dpkg-deb -f "$deb" Version) (commit " "$work/version-$where" ||
    fail "$where: --version does not name the package's version and a commit"
  "$bin" list >"$work/list-$where" || fail "$where: list failed"
  grep -q '^sequential' "$work/list-$where" || fail "$where: list shows no catalog"
  "$bin" trace --algorithm sequential --size 1000 --block 128 --backend sim --format text >"$work/trace-$where" ||
    fail "$where: trace failed"
  grep -q 'CPU model' "$work/trace-$where" || fail "$where: the trace does not say it ran on the CPU model"
  XDG_CONFIG_HOME=$work/config "$bin" --headless --backend sim --quit-after-frames 30 \
    --screenshot "$work/first-frame-$where.png" >/dev/null 2>&1 || fail "$where: no first frame headless"
  [ -s "$work/first-frame-$where.png" ] || fail "$where: the first frame is empty"
  cp "$work/first-frame-$where.png" "${REDLAB_PACKAGE_SHOTS:-$work}/" 2>/dev/null || true
  echo "$where: version, list, trace and a first frame: fine"
}

echo "== the program unpacked (dpkg -x)"
dpkg -x "$deb" "$work/root"
run_program "$work/root/usr/bin/reduction-lab" unpacked

if [ "${CI:-}" = true ] || [ "${REDLAB_PACKAGE_INSTALL:-}" = 1 ]; then
  echo "== installed with apt, then removed"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
  [ "$(command -v reduction-lab)" = /usr/bin/reduction-lab ] || fail "not installed at /usr/bin/reduction-lab"
  dpkg -L reduction-lab > "$work/installed"
  run_program /usr/bin/reduction-lab installed
  DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq --purge reduction-lab >/dev/null
  while read -r f; do
    [ -d "$f" ] && continue  # folders other packages share (/usr/share/applications...)
    [ ! -e "$f" ] || fail "apt remove left $f"
  done < "$work/installed"
  ! dpkg -s reduction-lab >/dev/null 2>&1 || fail "dpkg still lists reduction-lab"
  echo "installed, ran from /usr/bin, removed: nothing of it left"
fi
echo "package-check: $(basename "$deb") fine"
