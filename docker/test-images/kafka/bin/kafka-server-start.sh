#!/usr/bin/env bash
# Starts the broker with the given properties file; logs to stdout (the container's log).
# Usage: kafka-server-start.sh SERVER_PROPERTIES
set -eu
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G}"
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties}"
exec "$(dirname "$0")/kafka-run-class.sh" kafka.Kafka "$@"
