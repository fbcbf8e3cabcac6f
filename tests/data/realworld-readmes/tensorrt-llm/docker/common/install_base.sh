#!/bin/bash
# installs Python $1 and build tools
set -ex
