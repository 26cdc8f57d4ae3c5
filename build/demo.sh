#!/usr/bin/env bash
# The main job: the end-to-end demo (pack, install, warn, Fix All, enforce), with its report.
set -euo pipefail
exec bash "$(dirname "$0")/e2e.sh"
