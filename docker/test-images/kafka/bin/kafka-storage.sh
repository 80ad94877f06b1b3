#!/usr/bin/env bash
# The name apache/kafka's image gives this tool, running kafka.tools.StorageTool.
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
