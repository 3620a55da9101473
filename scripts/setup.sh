#!/usr/bin/env bash
# Installs what the build and tests need from Debian/Ubuntu packages, only what is missing.
# The CUDA toolkit is not a Debian package: with nvcc (on PATH or in /usr/local/cuda) the
# GPU backend is built, without it the app runs on the CPU model and says so.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git dpkg-dev help2man lintian desktop-file-utils appstream
  libglfw3-dev libx11-dev libimgui-dev python3-glad libcli11-dev nlohmann-json3-dev libstb-dev libgtest-dev clang clang-format clang-tidy
  fonts-dejavu-core libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri xvfb xauth xdotool ffmpeg)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: CUDA toolkit found in /usr/local/cuda (add /usr/local/cuda/bin to PATH)"
elif ! command -v nvcc >/dev/null; then
  echo "setup: no CUDA toolkit: building the CPU model only (the window will say so)"
fi
