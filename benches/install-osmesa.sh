#!/bin/sh
# Installs Mesa's off-screen renderer (OSMesa, llvmpipe inside) that the `llvmpipe` bench loads at
# run time as libOSMesa.so.8. Debian/Ubuntu; needs root.
set -e
apt-get update
apt-get install -y libosmesa6
