#!/bin/bash
# Container health check without curl or wget: GET an actuator health group over bash's /dev/tcp and succeed only on
# HTTP 200 (Spring Boot answers 503 while the group is DOWN).
# Usage: zl-healthcheck PORT [PATH]   (PATH defaults to /actuator/health/readiness)
set -u
port="${1:?usage: zl-healthcheck PORT [PATH]}"
path="${2:-/actuator/health/readiness}"
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "${path}" >&3
IFS= read -r -t 5 status <&3 || exit 1
exec 3<&-
[[ "${status}" == HTTP/1.?\ 200* ]]
