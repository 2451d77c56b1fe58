#!/bin/bash -eu
# ClusterFuzzLite build: the same script as OSS-Fuzz's (ci/oss-fuzz/build.sh),
# run from the checkout the Dockerfile copied to $SRC/scnfuzz.
exec bash "$SRC/scnfuzz/ci/oss-fuzz/build.sh" "$@"
