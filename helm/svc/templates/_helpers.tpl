{{/* The roles, each a Deployment running `node bin/svc.js <role>`. */}}
{{- define "svc.roles" -}}
{{- toJson (list "gateway" "scheduler" "crawler") -}}
{{- end -}}

{{- define "svc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* "<release>-<chart>", or the release name alone when it already holds the chart name. */}}
{{- define "svc.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A role's resource name: "<fullname>-<role>", kept within 63 characters. */}}
{{- define "svc.roleName" -}}
{{- printf "%s-%s" (include "svc.fullname" .root | trunc (int (sub 62 (len .role)))) .role -}}
{{- end -}}

{{- define "svc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .role }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{/* Labels of every resource; (dict "root" $ "role" "gateway"), role optional. */}}
{{- define "svc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "svc.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: svc
{{- end -}}

{{- define "svc.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion | toString) -}}
{{- end -}}

{{- define "svc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "svc.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
A value as the text a process reads. Helm reads numbers of values files as float64, which print
as 1e+06 from a million on: whole numbers are printed as integers.
*/}}
{{- define "svc.text" -}}
{{- if and (kindIs "float64" .) (eq . (floor .)) -}}
{{- int64 . -}}
{{- else -}}
{{- . -}}
{{- end -}}
{{- end -}}

{{/* The variables that carry credentials: the Secret's, and every role's secretEnv. */}}
{{- define "svc.secretNames" -}}
{{- $names := keys (.Values.secret.values | default dict) -}}
{{- range $role := include "svc.roles" . | fromJsonArray -}}
{{- $names = concat $names ((index $.Values $role).secretEnv | default list) -}}
{{- end -}}
{{- toJson ($names | uniq | sortAlpha) -}}
{{- end -}}

{{/*
The SVC_* variables of one role as text (dict "root" $ "role" "gateway"): `config`, the role's own
`config` over it, and for the gateway and the crawler the scheduler's address (unless set). Helm
drops values set to null before this sees them; the check is for any that get through.
*/}}
{{- define "svc.roleConfig" -}}
{{- $root := .root -}}
{{- $own := (index $root.Values .role).config | default dict -}}
{{- $merged := merge (deepCopy $own) (deepCopy ($root.Values.config | default dict)) -}}
{{- $out := dict -}}
{{- range $name, $value := $merged -}}
{{- if not (kindIs "invalid" $value) -}}
{{- $_ := set $out $name (include "svc.text" $value) -}}
{{- end -}}
{{- end -}}
{{- $credentials := include "svc.secretNames" $root | fromJsonArray -}}
{{- range $name := keys $out | sortAlpha -}}
{{- if has $name $credentials -}}
{{- fail (printf "%s carries credentials: set it under secret.values (or in secret.existingSecret), not in config or %s.config" $name $.role) -}}
{{- end -}}
{{- end -}}
{{- if and (has .role (list "gateway" "crawler")) (not (get $out "SVC_SCHEDULER_ADDRESS")) -}}
{{- $_ := set $out "SVC_SCHEDULER_ADDRESS" (include "svc.schedulerAddress" $root) -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* host:port of SVC_GRPC_LISTEN, as the scheduler reads it (Svc's default when unset). */}}
{{- define "svc.grpcListen" -}}
{{- $cfg := include "svc.roleConfig" (dict "root" . "role" "scheduler") | fromYaml -}}
{{- get $cfg "SVC_GRPC_LISTEN" | default "127.0.0.1:7070" -}}
{{- end -}}

{{- define "svc.grpcPort" -}}
{{- include "svc.grpcListen" . | regexFind "[0-9]+$" | default "0" | atoi -}}
{{- end -}}

{{/* What the gateway and the crawlers dial: the scheduler Service on the gRPC port. */}}
{{- define "svc.schedulerAddress" -}}
{{- printf "%s:%d" (include "svc.roleName" (dict "root" . "role" "scheduler")) (include "svc.grpcPort" . | atoi) -}}
{{- end -}}

{{/* A port variable of a role's configuration (dict "cfg" $cfg "name" "SVC_PORT" "default" "8080" "role" $role), refused when 0 or not a number. */}}
{{- define "svc.port" -}}
{{- $raw := get .cfg .name | default .default -}}
{{- $port := $raw | atoi -}}
{{- if or (lt $port 1) (gt $port 65535) (not (regexMatch "^[0-9]+$" $raw)) -}}
{{- fail (printf "%s of the %s is %q: a pod needs a fixed port from 1 to 65535" .name .role $raw) -}}
{{- end -}}
{{- $port -}}
{{- end -}}

{{/*
Refuses a listen address other than every address of the pod
(dict "name" … "value" … "role" … "why" …); an empty value is Svc's default, loopback.
*/}}
{{- define "svc.requireAnyAddress" -}}
{{- if not (has .value (list "0.0.0.0" "::")) -}}
{{- $shown := ternary "unset (Svc's default is 127.0.0.1)" (printf "%q" .value) (empty .value) -}}
{{- fail (printf "%s of the %s is %s: in a pod it must be 0.0.0.0 (or ::), or %s" .name .role $shown .why) -}}
{{- end -}}
{{- end -}}

{{/* The data of the Secret the chart creates: its non-empty values, base64-encoded. */}}
{{- define "svc.secretData" -}}
{{- $data := dict -}}
{{- range $name, $value := .Values.secret.values | default dict -}}
{{- if $value -}}
{{- $_ := set $data $name (include "svc.text" $value | b64enc) -}}
{{- end -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{- define "svc.secretName" -}}
{{- .Values.secret.existingSecret | default (include "svc.fullname" .) -}}
{{- end -}}

{{/* A role's merged probe settings (dict "root" $ "role" … "probe" "startup"). */}}
{{- define "svc.probe" -}}
{{- $own := get ((index .root.Values .role).probes | default dict) .probe | default dict -}}
{{- toYaml (merge (deepCopy $own) (deepCopy (get .root.Values.probes .probe | default dict))) -}}
{{- end -}}
