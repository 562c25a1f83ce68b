#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets in fuzz/corpus/<target>/ from the sample files
# (../shared/data, or $CLIPSCOPE_DATA), the test fixtures, the built-in assets and the
# committed regression inputs. The sample files are licensed separately and stay out of the
# repository: the corpus folder is ignored by git and rebuilt by this script.
set -euo pipefail
cd "$(dirname "$0")"
root=..
data=${CLIPSCOPE_DATA:-$root/../shared/data}
corpus=corpus
mkdir -p "$corpus"
seed() { # target, files...
    local target=$1; shift
    mkdir -p "$corpus/$target"
    for f in "$@"; do
        [ -f "$f" ] || continue
        cp -f "$f" "$corpus/$target/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
}
threejs_files=("$data"/threejs/*.json "$root"/assets/demo/*.json "$root"/tests/fixtures/conformance/*.input.json)
seed threejs "${threejs_files[@]}"
seed threejs_legacy "$data"/threejs/*.json
seed playcanvas "$data"/playcanvas/*.json
seed lottie "$data"/lottie/*.json
seed gltf "$data"/gltf/*.gltf "$data"/gltf-validator/*/*.gltf
# No GLB samples ship: every glTF sample is converted to GLB with clipscope itself.
clipscope=${CLIPSCOPE_BIN:-$root/target/debug/clipscope}
[ -x "$clipscope" ] || (cd "$root" && cargo build --quiet --no-default-features)
glbs=$(mktemp -d)
trap 'rm -rf "$glbs"' EXIT
for f in "$data"/gltf/*.gltf "$data"/gltf-validator/*/*.gltf; do
    [ -f "$f" ] || continue
    "$clipscope" convert "$f" -o "$glbs/$(basename "$(dirname "$f")")-$(basename "$f" .gltf).glb" \
        >/dev/null 2>&1 || true
done
seed glb "$glbs"/*.glb
seed cycle "$root"/assets/cycles/*.json
seed config_toml seeds/config_toml/*
seed baseline seeds/baseline/*
seed round_trip "${threejs_files[@]}" "$data"/playcanvas/*.json "$data"/lottie/*.json \
    "$data"/gltf/*.gltf "$data"/gltf-validator/*/*.gltf "$glbs"/*.glb
seed packed "$data"/gltf/*.gltf "$data"/gltf-validator/*/*.gltf "$glbs"/*.glb
# Inputs that once failed stay in the corpus of their target.
for dir in regressions/*/; do
    [ -d "$dir" ] || continue
    target=$(basename "$dir")
    seed "$target" "$dir"*
done
for d in "$corpus"/*/; do
    echo "$(basename "$d"): $(find "$d" -type f | wc -l) seeds"
done
