{{/* Names and labels shared by every template. */}}
{{- define "poolbench.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "poolbench.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "poolbench.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "poolbench.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "poolbench.fullname" .)) -}}
{{- end -}}

{{- define "poolbench.image" -}}
{{- $img := index .root.Values.image .which -}}
{{ printf "%s:%s" $img.repository ($img.tag | default .root.Chart.AppVersion) }}
{{- end -}}

{{/* Environment every PoolBench process reads from the Secret. */}}
{{- define "poolbench.secretEnv" -}}
{{- $s := include "poolbench.secretName" . -}}
{{- range list "DATABASE_URL" "REDIS_URL" "POOLBENCH_SECRET_KEY" "BETTER_AUTH_SECRET" "LAB_DATABASE_URL" }}
- name: {{ . }}
  valueFrom: { secretKeyRef: { name: {{ $s }}, key: {{ . }} } }
{{- end }}
{{- end -}}

{{/* Init container: waits until the migration Job has applied this build's schema. */}}
{{- define "poolbench.waitForSchema" -}}
- name: wait-for-schema
  image: {{ include "poolbench.image" (dict "root" . "which" "worker") }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  command: ["npm", "run", "-s", "migrate", "-w", "@poolbench/db", "--", "--wait={{ .Values.migrations.waitSeconds }}"]
  env:
    - name: DATABASE_URL
      valueFrom: { secretKeyRef: { name: {{ include "poolbench.secretName" . }}, key: DATABASE_URL } }
  securityContext: {{- toYaml .Values.containerSecurityContext | nindent 4 }}
  resources: { requests: { cpu: 50m, memory: 128Mi }, limits: { memory: 256Mi } }
{{- end -}}

{{- define "poolbench.workerTerminationGrace" -}}
{{- add .Values.worker.shutdownGraceSeconds .Values.worker.terminationMarginSeconds -}}
{{- end -}}
