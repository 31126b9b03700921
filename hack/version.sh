#!/bin/sh
# Prints the build's version as a semver with the commit as build metadata,
# for the Makefile to stamp into fn.Version:
#
#   v1.2.0+abc1234            on the tag v1.2.0
#   v1.2.0-dev.3+abc1234      three commits after it
#   v0.0.0-dev+abc1234        with no v* tag in the history
#   ….dirty                   appended when the work tree has changes
#   v0.0.0-dev                outside a git checkout (a source tarball, a container build without .git)
set -u
commit=$(git rev-parse --short=7 HEAD 2>/dev/null) || { echo v0.0.0-dev; exit 0; }
dirty=
git diff --quiet HEAD -- 2>/dev/null || dirty=.dirty
if tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null); then
  n=$(git rev-list --count "$tag..HEAD")
  if [ "$n" = 0 ]; then
    echo "$tag+$commit$dirty"
  else
    echo "$tag-dev.$n+$commit$dirty"
  fi
else
  echo "v0.0.0-dev+$commit$dirty"
fi
