#!/usr/bin/env bash
# Runs one of Kafka's main classes on the image's jars. Tools log warnings to stderr; the broker sets its own logging.
# Usage: kafka-run-class.sh CLASS [ARGS...]
set -eu
log_config="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=/opt/kafka/config/tools-log4j2.properties}"
# shellcheck disable=SC2086 # the *_OPTS variables are word lists, as in Kafka's own scripts
exec java ${KAFKA_HEAP_OPTS:-} ${KAFKA_JVM_PERFORMANCE_OPTS:-} ${KAFKA_OPTS:-} ${log_config} \
    -cp '/opt/kafka/libs/*' "$@"
