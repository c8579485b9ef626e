#!/usr/bin/env bash
# Regenerates the Python messages and stubs in clack/ from the repository's proto/ (needs
# grpcio-tools: pip install grpcio-tools). The generated code is committed, so a bot author needs
# only grpcio and protobuf.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf clack
python3 -m grpc_tools.protoc -I ../../proto --python_out=. --grpc_python_out=. ../../proto/clack/v1/*.proto
touch clack/__init__.py clack/v1/__init__.py
