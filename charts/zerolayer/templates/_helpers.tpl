{{/*
Names, labels and the pieces every ZeroLayer workload shares.
*/}}

{{/* The services this chart can deploy: values key -> port environment variable the application reads. */}}
{{- define "zerolayer.services" -}}
router: ROUTER_PORT
telemetry: TELEMETRY_PORT
complexity: COMPLEXITY_PORT
cache: CACHE_PORT
fallback: FALLBACK_PORT
simulator: SIMULATOR_PORT
console: CONSOLE_PORT
{{- end }}

{{- define "zerolayer.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "zerolayer.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of one service's resources: <fullname>-<image name>, e.g. zerolayer-router-service. Args: root, service values. */}}
{{- define "zerolayer.componentName" -}}
{{- printf "%s-%s" (include "zerolayer.fullname" .root) .svc.imageName | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "zerolayer.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "zerolayer.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: zerolayer
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one service. Args: root, svc. */}}
{{- define "zerolayer.selectorLabels" -}}
app.kubernetes.io/name: {{ include "zerolayer.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .svc.imageName }}
{{- end }}

{{- define "zerolayer.image" -}}
{{- $tag := default .root.Chart.AppVersion .root.Values.image.tag -}}
{{- if .root.Values.image.registry -}}
{{- printf "%s/%s/%s:%s" .root.Values.image.registry .root.Values.image.repository .svc.imageName $tag -}}
{{- else -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .svc.imageName $tag -}}
{{- end -}}
{{- end }}

{{- define "zerolayer.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "zerolayer.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "zerolayer.credentialsSecret" -}}
{{- default (printf "%s-credentials" (include "zerolayer.fullname" .)) .Values.auth.existingSecret }}
{{- end }}

{{/* Resources with the requests this chart insists on: rendering fails without cpu and memory requests. Args: name, resources. */}}
{{- define "zerolayer.resources" -}}
{{- $r := .resources | default dict -}}
{{- $req := $r.requests | default dict -}}
{{- if not (and $req.cpu $req.memory) -}}
{{- fail (printf "%s.resources.requests.cpu and %s.resources.requests.memory are required: the scheduler and the HPA need them" .name .name) -}}
{{- end -}}
{{- toYaml $r -}}
{{- end }}

{{/* Kafka connection as environment: bootstrap servers for the services' placeholders, TLS/SASL as binder client properties. */}}
{{- define "zerolayer.kafkaEnv" -}}
{{- $k := .Values.kafka -}}
{{- $p := "SPRING_CLOUD_STREAM_KAFKA_BINDER_CONFIGURATION_" -}}
- name: KAFKA_BOOTSTRAP_SERVERS
  value: {{ required "kafka.bootstrapServers is required: the existing cluster's bootstrap address" $k.bootstrapServers | quote }}
- name: ZEROLAYER_REPLICATIONFACTOR
  value: {{ $k.replicationFactor | quote }}
{{- $protocol := $k.securityProtocol | default "PLAINTEXT" }}
{{- if not (has $protocol (list "PLAINTEXT" "SSL" "SASL_PLAINTEXT" "SASL_SSL")) }}
{{- fail (printf "kafka.securityProtocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not %s" $protocol) }}
{{- end }}
- name: {{ $p }}SECURITY_PROTOCOL
  value: {{ $protocol | quote }}
{{- if hasSuffix "SSL" $protocol }}
- name: {{ $p }}SSL_ENDPOINT_IDENTIFICATION_ALGORITHM
  value: {{ $k.tls.endpointIdentificationAlgorithm | quote }}
{{- with $k.tls.truststore }}
{{- if .secretName }}
- name: {{ $p }}SSL_TRUSTSTORE_LOCATION
  value: {{ printf "/etc/zerolayer/kafka/truststore/%s" .key | quote }}
- name: {{ $p }}SSL_TRUSTSTORE_TYPE
  value: {{ .type | quote }}
{{- if .passwordKey }}
- name: {{ $p }}SSL_TRUSTSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .passwordKey }}
{{- end }}
{{- end }}
{{- end }}
{{- with $k.tls.keystore }}
{{- if .secretName }}
- name: {{ $p }}SSL_KEYSTORE_LOCATION
  value: {{ printf "/etc/zerolayer/kafka/keystore/%s" .key | quote }}
- name: {{ $p }}SSL_KEYSTORE_TYPE
  value: {{ .type | quote }}
{{- if .passwordKey }}
- name: {{ $p }}SSL_KEYSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .passwordKey }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if hasPrefix "SASL" $protocol }}
{{- $mechanism := required "kafka.sasl.mechanism is required with a SASL security protocol" $k.sasl.mechanism }}
- name: {{ $p }}SASL_MECHANISM
  value: {{ $mechanism | quote }}
{{- if $k.sasl.jaasConfigSecret.name }}
- name: {{ $p }}SASL_JAAS_CONFIG
  valueFrom:
    secretKeyRef:
      name: {{ $k.sasl.jaasConfigSecret.name }}
      key: {{ $k.sasl.jaasConfigSecret.key }}
{{- else if $k.sasl.credentialsSecret.name }}
- name: KAFKA_SASL_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ $k.sasl.credentialsSecret.name }}
      key: {{ $k.sasl.credentialsSecret.usernameKey }}
- name: KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $k.sasl.credentialsSecret.name }}
      key: {{ $k.sasl.credentialsSecret.passwordKey }}
{{- $module := ternary "org.apache.kafka.common.security.plain.PlainLoginModule" "org.apache.kafka.common.security.scram.ScramLoginModule" (eq $mechanism "PLAIN") }}
- name: {{ $p }}SASL_JAAS_CONFIG
  value: {{ printf "%s required username=\"$(KAFKA_SASL_USERNAME)\" password=\"$(KAFKA_SASL_PASSWORD)\";" $module | quote }}
{{- else }}
{{- fail "a SASL security protocol needs kafka.sasl.jaasConfigSecret.name or kafka.sasl.credentialsSecret.name" }}
{{- end }}
{{- end }}
{{- range $key, $value := $k.extraProperties }}
- name: {{ printf "%s%s" $p ($key | upper | replace "." "_" | replace "-" "_") }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{/* Volumes with the Kafka truststore/keystore Secrets, plus /tmp (the root filesystem is read-only). */}}
{{- define "zerolayer.volumes" -}}
- name: tmp
  emptyDir: {}
{{- if hasSuffix "SSL" (.Values.kafka.securityProtocol | default "PLAINTEXT") }}
{{- with .Values.kafka.tls.truststore }}
{{- if .secretName }}
- name: kafka-truststore
  secret:
    secretName: {{ .secretName }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.kafka.tls.keystore }}
{{- if .secretName }}
- name: kafka-keystore
  secret:
    secretName: {{ .secretName }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{- define "zerolayer.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if hasSuffix "SSL" (.Values.kafka.securityProtocol | default "PLAINTEXT") }}
{{- if .Values.kafka.tls.truststore.secretName }}
- name: kafka-truststore
  mountPath: /etc/zerolayer/kafka/truststore
  readOnly: true
{{- end }}
{{- if .Values.kafka.tls.keystore.secretName }}
- name: kafka-keystore
  mountPath: /etc/zerolayer/kafka/keystore
  readOnly: true
{{- end }}
{{- end }}
{{- end }}
