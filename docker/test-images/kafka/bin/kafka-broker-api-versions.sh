#!/usr/bin/env bash
# The name apache/kafka's image gives this tool, running org.apache.kafka.tools.BrokerApiVersionsCommand.
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
