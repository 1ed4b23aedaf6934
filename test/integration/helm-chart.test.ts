import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CONFIG_FIELDS, loadConfig, type Config } from "../../runtime/index.ts";
import { helmBinary, HelmError, lintChart, renderChart, renderNotes, type HelmBinary, type Manifest } from "../harness/helm.ts";
import { REPO_ROOT } from "../harness/svc-process.ts";
import { TOPICS } from "../../proto/index.ts";
import { kubeStrictBinary, validateStrict } from "../harness/kube-strict.ts";

// The Helm chart (helm/svc) rendered by the real helm, with its defaults and with the value sets
// operators reach for: what a cluster would be given, held against the code it runs. Every
// variable a role receives must be one Svc knows (it warns of an unknown SVC_* and ignores it), and
// the environment of each role must pass Svc's own loadConfig with the ports the Services and
// probes use.
//
// The first run builds helm from the Go module proxy into .cache/helm (about 90 s on 2 cores);
// later runs take about 4 s.

const CHART = "helm/svc";
const RELEASE = "acme";
const BUILD_MS = 20 * 60_000;
const ROLES = ["gateway", "scheduler", "crawler"] as const;
type Role = (typeof ROLES)[number];
const SVC_NAMES = new Set(CONFIG_FIELDS.map((f) => f.env));
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** Credentials of a value set: distinctive enough that any leak shows. */
const SECRETS = {
  SVC_POSTGRES_URL: "postgres://svc:pg-Secret-1f3a@db.acme.svc:5432/svc",
  SVC_CLICKHOUSE_URL: "http://svc:ch-Secret-9b2c@clickhouse.acme.svc:8123/svc",
  SVC_BOOTSTRAP_KEY: "svc_S96t4qUnaRD3pbOwW2Sf7W43YkvBD6x67g8Pr0J9",
};
/** What a working installation sets: the engines, and the chart's defaults otherwise. */
const ENGINES = { config: { SVC_KAFKA_BROKERS: "kafka-0.kafka:9092,kafka-1.kafka:9092" }, secret: { values: SECRETS } };

/** Value sets operators reach for. */
const HPA = { crawler: { autoscaling: { enabled: true, minReplicas: 3, maxReplicas: 12 } } };
const KEDA = { crawler: { autoscaling: { enabled: true, minReplicas: 2, maxReplicas: 12, keda: { enabled: true, lagThreshold: 40 } } } };
const ALL_ON = { metrics: { serviceMonitor: { enabled: true }, prometheusRule: { enabled: true }, dashboards: { enabled: true } }, gateway: { podDisruptionBudget: { enabled: true } } };
const INGRESS = {
  gateway: {
    ingress: {
      enabled: true,
      className: "nginx",
      hosts: [{ host: "svc.acme.example", paths: [{ path: "/", pathType: "Prefix" }] }],
      tls: [{ secretName: "svc-tls", hosts: ["svc.acme.example"] }],
    },
  },
};
const MONITORED = { metrics: { serviceMonitor: { enabled: true, labels: { release: "kube-prometheus-stack" } } } };
const EXISTING_SECRET = { secret: { existingSecret: "svc-credentials", existingSecretKeys: { SVC_POSTGRES_URL: "uri" } }, config: { SVC_KAFKA_BROKERS: "kafka:9092" } };
const OVERRIDES = {
  config: { SVC_MAX_BODY_BYTES: 10485760, SVC_KEY_CACHE_MS: 3600000, SVC_ALLOW_PRIVATE_TARGETS: true, SVC_LOG_LEVEL: "warn" },
  gateway: { config: { SVC_PORT: 8081, SVC_ADMIN_PORT: 9100, SVC_LOG_LEVEL: "debug" } },
  scheduler: { config: { SVC_GRPC_LISTEN: "0.0.0.0:7171" }, replicaCount: 2 },
  crawler: { config: { SVC_SHUTDOWN_GRACE_MS: 60000, SVC_WORKER_CONCURRENCY: 4, SVC_PARSE_THREADS: 2 } },
};

interface Probe {
  readonly httpGet: { readonly path: string; readonly port: string | number };
  readonly periodSeconds: number;
  readonly failureThreshold: number;
  readonly timeoutSeconds: number;
}
interface EnvEntry {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string; readonly optional?: boolean } };
}
interface Container {
  readonly name: string;
  readonly image: string;
  readonly workingDir?: string;
  readonly command: string[];
  readonly args?: string[];
  readonly envFrom?: { readonly configMapRef?: { readonly name: string }; readonly secretRef?: unknown; readonly prefix?: string }[];
  readonly env?: EnvEntry[];
  readonly ports: { readonly name: string; readonly containerPort: number }[];
  readonly startupProbe: Probe;
  readonly livenessProbe: Probe;
  readonly readinessProbe: Probe;
  readonly lifecycle?: { readonly preStop?: { readonly exec?: { readonly command: string[] } } };
}
interface DeploymentSpec {
  readonly replicas?: number;
  readonly selector: { readonly matchLabels: Record<string, string> };
  readonly template: {
    readonly metadata: { readonly labels: Record<string, string>; readonly annotations?: Record<string, string> };
    readonly spec: { readonly containers: Container[]; readonly terminationGracePeriodSeconds: number; readonly volumes?: unknown[] };
  };
}
interface ServiceSpec {
  readonly type?: string;
  readonly clusterIP?: string;
  readonly selector: Record<string, string>;
  readonly ports: { readonly name: string; readonly port: number; readonly targetPort: string | number }[];
}

let helm: HelmBinary;
let kubeStrict: string;

beforeAll(async () => {
  [helm, kubeStrict] = await Promise.all([helmBinary(), kubeStrictBinary()]);
  process.stderr.write(`[helm-chart] helm ${helm.version} (${helm.source}) ready in ${(helm.ms / 1000).toFixed(1)} s: ${helm.path}\n`);
}, BUILD_MS);

function render(...values: object[]): Manifest[] {
  return renderChart(helm, CHART, { release: RELEASE, values });
}

function renderError(...values: object[]): string {
  try {
    render(...values);
  } catch (err) {
    if (err instanceof HelmError) return err.stderr;
    throw err;
  }
  throw new Error("helm template succeeded");
}

function find(ms: Manifest[], kind: string, name: string): Manifest {
  const m = ms.find((x) => x.kind === kind && x.metadata.name === name);
  if (!m) throw new Error(`no ${kind} ${name} among ${ms.map((x) => `${x.kind}/${x.metadata.name}`).join(", ")}`);
  return m;
}

const deployment = (ms: Manifest[], role: Role) => find(ms, "Deployment", `${RELEASE}-svc-${role}`).spec as DeploymentSpec;
const service = (ms: Manifest[], name: string) => find(ms, "Service", name).spec as ServiceSpec;

function container(ms: Manifest[], role: Role): Container {
  const containers = deployment(ms, role).template.spec.containers;
  expect(containers.map((c) => c.name)).toEqual([role]);
  return containers[0]!;
}

function port(c: Container, name: string): number {
  const p = c.ports.find((x) => x.name === name);
  if (!p) throw new Error(`container ${c.name} has no port named ${name}`);
  return p.containerPort;
}

/** What a role's process receives: the ConfigMaps it reads whole, and its env entries. */
function roleEnv(ms: Manifest[], role: Role): { fromConfigMaps: Record<string, string>; entries: EnvEntry[]; names: string[] } {
  const c = container(ms, role);
  const fromConfigMaps: Record<string, string> = {};
  for (const source of c.envFrom ?? []) {
    expect(source.secretRef, "envFrom takes no Secret whole: each role names the credentials it needs").toBeUndefined();
    expect(source.prefix).toBeUndefined();
    Object.assign(fromConfigMaps, find(ms, "ConfigMap", source.configMapRef!.name).data as Record<string, string>);
  }
  const entries = c.env ?? [];
  return { fromConfigMaps, entries, names: [...Object.keys(fromConfigMaps), ...entries.map((e) => e.name)] };
}

/** The role's environment as the kubelet would build it (Secret keys resolved), through Svc's loadConfig. */
function roleConfig(ms: Manifest[], role: Role): Config {
  const { fromConfigMaps, entries } = roleEnv(ms, role);
  const env: Record<string, string> = { ...fromConfigMaps };
  for (const entry of entries) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (entry.value !== undefined) env[entry.name] = entry.value;
    if (!ref) continue;
    const secret = ms.find((m) => m.kind === "Secret" && m.metadata.name === ref.name);
    const data = (secret?.data ?? {}) as Record<string, string>;
    if (data[ref.key] !== undefined) env[entry.name] = Buffer.from(data[ref.key]!, "base64").toString("utf8");
    else expect(ref.optional, `${entry.name} of the ${role} from a key the chart did not write`).toBe(true);
  }
  return loadConfig(env, role);
}

/** The terminationGracePeriodSeconds a role's pods need: preStop, Svc's own grace period, the margin. */
function expectGrace(ms: Manifest[], role: Role, preStopSeconds: number, marginSeconds = 5): void {
  const spec = deployment(ms, role).template.spec;
  const graceMs = roleConfig(ms, role).shutdownGraceMs;
  expect(spec.terminationGracePeriodSeconds).toBe(preStopSeconds + Math.ceil(graceMs / 1000) + marginSeconds);
  expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + graceMs / 1000);
  const preStop = container(ms, role).lifecycle?.preStop?.exec?.command;
  expect(preStop).toEqual(preStopSeconds > 0 ? ["sleep", String(preStopSeconds)] : undefined);
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Every role's environment: real SVC_* names only, loadConfig passes, listeners on every address. */
function expectSoundEnvironments(ms: Manifest[]): void {
  for (const role of ROLES) {
    const { names } = roleEnv(ms, role);
    expect(names.filter((n) => !SVC_NAMES.has(n)), `variables of the ${role} Svc does not know`).toEqual([]);
    expect(new Set(names).size, `a variable given twice to the ${role}`).toBe(names.length);
    const config = roleConfig(ms, role);
    expect(config.adminHost).toBe("0.0.0.0");
    expect(port(container(ms, role), "admin")).toBe(config.adminPort);
  }
}

describe("helm lint", () => {
  it("passes --strict with the defaults and with every value set of this file", () => {
    for (const values of [[], [ENGINES], [ENGINES, HPA], [ENGINES, KEDA], [ENGINES, INGRESS], [ENGINES, MONITORED], [ENGINES, OVERRIDES], [EXISTING_SECRET]]) {
      expect(lintChart(helm, CHART, { values })).toContain("1 chart(s) linted, 0 chart(s) failed");
    }
  });
});

describe("the default values", () => {
  it("render the three roles, their ConfigMaps, the Services and the Secret, and nothing optional", () => {
    const ms = render();
    const got = ms.map((m) => `${m.kind}/${m.metadata.name}`).sort();
    expect(got).toEqual(
      [
        "ConfigMap/acme-svc-crawler",
        "ConfigMap/acme-svc-gateway",
        "ConfigMap/acme-svc-scheduler",
        "Deployment/acme-svc-crawler",
        "Deployment/acme-svc-gateway",
        "Deployment/acme-svc-scheduler",
        "Secret/acme-svc",
        "Service/acme-svc-admin",
        "Service/acme-svc-gateway",
        "Service/acme-svc-scheduler",
        "ServiceAccount/acme-svc",
      ].sort(),
    );
    for (const kind of ["HorizontalPodAutoscaler", "Ingress", "ServiceMonitor", "PodDisruptionBudget"]) expect(ms.filter((m) => m.kind === kind)).toEqual([]);
  });

  it("spread crawlers over nodes by default; alerts and dashboards only when enabled", () => {
    const spread = (ms: Manifest[], role: Role) => (deployment(ms, role).template.spec as { topologySpreadConstraints?: unknown }).topologySpreadConstraints;
    const ms = render();
    expect(spread(ms, "crawler")).toEqual([
      { maxSkew: 1, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "ScheduleAnyway", labelSelector: { matchLabels: deployment(ms, "crawler").selector.matchLabels } },
    ]);
    expect([spread(ms, "gateway"), spread(ms, "scheduler")]).toEqual([undefined, undefined]);
    expect(spread(render({ crawler: { spreadOverNodes: false } }), "crawler")).toBeUndefined();
    const on = render({ metrics: { prometheusRule: { enabled: true }, dashboards: { enabled: true } } });
    const rule = on.find((m) => m.kind === "PrometheusRule") as unknown as { spec: { groups: { rules: { alert: string }[] }[] } };
    expect(rule.spec.groups[0]!.rules.map((r) => r.alert)).toContain("SvcRoleNotReady");
    const dashboards = on.find((m) => m.kind === "ConfigMap" && m.metadata.name.endsWith("-dashboards")) as unknown as { metadata: { labels: Record<string, string> }; data: Record<string, string> };
    expect(dashboards.metadata.labels.grafana_dashboard).toBe("1");
    expect((JSON.parse(dashboards.data["svc-overview.json"]!) as { uid: string }).uid).toBe("svc-overview");
  });

  it("run the compiled build, `node --expose-gc dist/bin/entry.js <role>`, from the image of Svc's version", () => {
    const ms = render();
    for (const role of ROLES) {
      const c = container(ms, role);
      // --expose-gc: the full collections after a large crawl (crawler/heap-trim.ts), as the image's entrypoint.
      expect(c.command).toEqual(["node", "--expose-gc", "dist/bin/entry.js", role]);
      expect(c.args).toBeUndefined();
      expect(c.image).toBe(`svc:${PACKAGE_VERSION}`);
      expect(c.workingDir).toBe("/app");
    }
    expect([deployment(ms, "gateway").replicas, deployment(ms, "scheduler").replicas, deployment(ms, "crawler").replicas]).toEqual([2, 1, 2]);
  });

  it("give each role only SVC_* variables Svc knows, and an environment loadConfig accepts", () => {
    const ms = render();
    expectSoundEnvironments(ms);
    // Every ConfigMap value is text as the API server wants it (a bare number or "on" would not be).
    for (const cm of ms.filter((m) => m.kind === "ConfigMap")) {
      for (const [k, v] of Object.entries(cm.data as Record<string, unknown>)) expect(typeof v, `${cm.metadata.name} ${k}`).toBe("string");
    }
  });

  it("probe /healthz and /readyz on the admin port, with a startup window of minutes", () => {
    const ms = render();
    for (const role of ROLES) {
      const c = container(ms, role);
      expect(c.startupProbe.httpGet).toEqual({ path: "/healthz", port: "admin" });
      expect(c.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "admin" });
      expect(c.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "admin" });
      expect(port(c, "admin")).toBe(9464);
      // The compiled build opens the admin port in seconds; two minutes leave room for a slow, busy node.
      expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBe(120);
      // /readyz checks each engine for up to 2.5 s.
      expect(c.readinessProbe.timeoutSeconds).toBeGreaterThan(2.5);
      const annotations = deployment(ms, role).template.metadata.annotations ?? {};
      expect(annotations).toMatchObject({ "prometheus.io/scrape": "true", "prometheus.io/port": "9464", "prometheus.io/path": "/metrics" });
    }
  });

  it("give each pod longer than SVC_SHUTDOWN_GRACE_MS to stop, and a preStop wait where connections arrive", () => {
    const ms = render();
    expectGrace(ms, "gateway", 5);
    expectGrace(ms, "scheduler", 5);
    expectGrace(ms, "crawler", 0);
    expect(deployment(ms, "gateway").template.spec.terminationGracePeriodSeconds).toBe(20);
    expect(deployment(ms, "crawler").template.spec.terminationGracePeriodSeconds).toBe(15);
  });

  it("point the gateway Service at SVC_PORT and give the gateway and the crawlers the scheduler's address", () => {
    const ms = render(ENGINES);
    const gw = service(ms, "acme-svc-gateway");
    expect(gw.type).toBe("ClusterIP");
    expect(gw.ports).toEqual([{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }]);
    expect(port(container(ms, "gateway"), "http")).toBe(roleConfig(ms, "gateway").port);
    expect(roleConfig(ms, "gateway").port).toBe(8080);
    expect(roleConfig(ms, "gateway").host).toBe("0.0.0.0");

    const sched = service(ms, "acme-svc-scheduler");
    expect(sched.clusterIP).toBeUndefined(); // ClusterIP, not headless: one stable address to reconnect to
    expect(sched.ports).toEqual([{ name: "grpc", port: 7070, targetPort: "grpc", protocol: "TCP" }]);
    expect(port(container(ms, "scheduler"), "grpc")).toBe(7070);
    expect(roleConfig(ms, "scheduler").grpcListen).toBe("0.0.0.0:7070");
    for (const role of ["gateway", "crawler"] as const) expect(roleConfig(ms, role).schedulerAddress).toBe("acme-svc-scheduler:7070");

    for (const [name, role] of [["acme-svc-gateway", "gateway"], ["acme-svc-scheduler", "scheduler"]] as const) {
      for (const r of ROLES) expect(selects(service(ms, name).selector, deployment(ms, r).template.metadata.labels), `${name} selects the ${r}`).toBe(r === role);
    }
    const admin = service(ms, "acme-svc-admin");
    expect(admin.clusterIP).toBe("None");
    expect(admin.ports).toEqual([{ name: "admin", port: 9464, targetPort: "admin", protocol: "TCP" }]);
    for (const r of ROLES) expect(selects(admin.selector, deployment(ms, r).template.metadata.labels)).toBe(true);
  });

  it("give each role the engines it needs, and the crawler no database credentials", () => {
    const ms = render(ENGINES);
    expectSoundEnvironments(ms);
    const gateway = roleConfig(ms, "gateway");
    const scheduler = roleConfig(ms, "scheduler");
    const crawler = roleConfig(ms, "crawler");
    expect([gateway.postgresUrl, gateway.clickhouseUrl, gateway.bootstrapKey]).toEqual([SECRETS.SVC_POSTGRES_URL, SECRETS.SVC_CLICKHOUSE_URL, SECRETS.SVC_BOOTSTRAP_KEY]);
    expect([scheduler.postgresUrl, scheduler.clickhouseUrl, scheduler.bootstrapKey]).toEqual([SECRETS.SVC_POSTGRES_URL, SECRETS.SVC_CLICKHOUSE_URL, null]);
    expect(scheduler.kafkaBrokers).toEqual(["kafka-0.kafka:9092", "kafka-1.kafka:9092"]);
    expect([crawler.postgresUrl, crawler.clickhouseUrl, crawler.bootstrapKey]).toEqual([null, null, null]);
    expect(crawler.kafkaBrokers).toEqual(["kafka-0.kafka:9092", "kafka-1.kafka:9092"]);
    expect(container(ms, "crawler").env).toBeUndefined();
  });

  it("keep credentials in the Secret only", () => {
    const ms = render(ENGINES);
    const secret = find(ms, "Secret", "acme-svc");
    const decoded = Object.fromEntries(Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
    expect(decoded).toEqual(SECRETS);
    const elsewhere = JSON.stringify(ms.filter((m) => m.kind !== "Secret"));
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(elsewhere.includes(value), `${name}'s value outside the Secret`).toBe(false);
      expect(elsewhere.includes(Buffer.from(value).toString("base64")), `${name}'s encoded value outside the Secret`).toBe(false);
      for (const cm of ms.filter((m) => m.kind === "ConfigMap")) expect(Object.keys(cm.data as object)).not.toContain(name);
    }
    // A Secret changed by `helm upgrade` rolls the pods, which read it only at start.
    const before = deployment(ms, "gateway").template.metadata.annotations?.["checksum/secret"];
    const after = deployment(render(ENGINES, { secret: { values: { SVC_BOOTSTRAP_KEY: "svc_QuIiupnM3tId9JZpXfnfMZSjvZ0QiFkLxoiNJ0GT" } } }), "gateway").template.metadata.annotations?.["checksum/secret"];
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
  });

  it("print how to reach the API and find the owner's key, and warn about missing engines", () => {
    const notes = renderNotes(helm, CHART, { release: RELEASE, namespace: "seo" });
    expect(notes).toContain("kubectl --namespace seo port-forward service/acme-svc-gateway 8080:80");
    expect(notes).toContain("curl http://127.0.0.1:8080/api/v1/capabilities");
    expect(notes).toContain("WARNING: no SVC_POSTGRES_URL");
    expect(notes).toContain("WARNING: no SVC_KAFKA_BROKERS");
    expect(notes).toContain("kubectl --namespace seo logs -l app.kubernetes.io/instance=acme,app.kubernetes.io/component=gateway --prefix --tail=-1 | grep -A2 'API key'");

    const configured = renderNotes(helm, CHART, { release: RELEASE, namespace: "seo", values: [ENGINES, INGRESS] });
    expect(configured).not.toContain("WARNING");
    expect(configured).toContain("https://svc.acme.example/api/v1");
    expect(configured).toContain("kubectl --namespace seo get secret acme-svc -o jsonpath='{.data.SVC_BOOTSTRAP_KEY}' | base64 -d");
  });

  it("render for the oldest Kubernetes the chart claims (1.23)", () => {
    const ms = renderChart(helm, CHART, { release: RELEASE, values: [HPA, { gateway: { podDisruptionBudget: { enabled: true } } }], args: ["--kube-version", "1.23.0"] });
    expect(find(ms, "HorizontalPodAutoscaler", "acme-svc-crawler").apiVersion).toBe("autoscaling/v2");
    expect(find(ms, "PodDisruptionBudget", "acme-svc-gateway").apiVersion).toBe("policy/v1");
  });
});


describe("crawler autoscaling", () => {
  it("targets the crawler Deployment, which then leaves its replica count to the autoscaler", () => {
    const ms = render(ENGINES, HPA);
    const hpa = find(ms, "HorizontalPodAutoscaler", "acme-svc-crawler");
    expect(hpa.apiVersion).toBe("autoscaling/v2");
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "acme-svc-crawler" },
      minReplicas: 3,
      maxReplicas: 12,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
    });
    expect(deployment(ms, "crawler").replicas).toBeUndefined();
    expect(deployment(ms, "gateway").replicas).toBe(2);
    expectSoundEnvironments(ms);
  });

  it("is refused beyond SVC_KAFKA_PARTITIONS, where crawlers would get no work", () => {
    expect(renderError(HPA, { config: { SVC_KAFKA_PARTITIONS: 8 } })).toContain("crawler.autoscaling.maxReplicas (12) is above SVC_KAFKA_PARTITIONS (8)");
    expect(find(render(HPA, { crawler: { config: { SVC_KAFKA_PARTITIONS: 12 } } }), "HorizontalPodAutoscaler", "acme-svc-crawler")).toBeDefined();
  });
});


describe("the Ingress", () => {
  it("routes its host to the gateway Service's port", () => {
    const ms = render(ENGINES, INGRESS);
    const ingress = find(ms, "Ingress", "acme-svc-gateway");
    expect(ingress.apiVersion).toBe("networking.k8s.io/v1");
    expect(ingress.spec).toEqual({
      ingressClassName: "nginx",
      tls: [{ secretName: "svc-tls", hosts: ["svc.acme.example"] }],
      rules: [
        {
          host: "svc.acme.example",
          http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "acme-svc-gateway", port: { number: 80 } } } }] },
        },
      ],
    });
    expect(service(ms, "acme-svc-gateway").ports[0]?.port).toBe(80);
  });
});


describe("the ServiceMonitor", () => {
  it("scrapes /metrics on the admin port of every pod through the headless admin Service", () => {
    const ms = render(ENGINES, MONITORED);
    const sm = find(ms, "ServiceMonitor", "acme-svc");
    expect(sm.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(sm.metadata.labels).toMatchObject({ release: "kube-prometheus-stack" });
    const spec = sm.spec as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string }[]; namespaceSelector: { matchNames: string[] } };
    expect(spec.endpoints).toEqual([{ port: "admin", path: "/metrics", interval: "30s", scrapeTimeout: "10s" }]);
    expect(spec.namespaceSelector.matchNames).toEqual(["default"]);
    const selected = ms.filter((m) => m.kind === "Service" && selects(spec.selector.matchLabels, m.metadata.labels ?? {}));
    expect(selected.map((m) => m.metadata.name)).toEqual(["acme-svc-admin"]);
    expect(service(ms, "acme-svc-admin").ports.map((p) => p.name)).toContain("admin");
  });
});


describe("an existing Secret", () => {
  it("is referenced by name and key, and the chart creates none", () => {
    const ms = render(EXISTING_SECRET);
    expect(ms.filter((m) => m.kind === "Secret")).toEqual([]);
    const refs = (role: Role) => (container(ms, role).env ?? []).map((e) => ({ name: e.name, key: e.valueFrom?.secretKeyRef?.key, optional: e.valueFrom?.secretKeyRef?.optional }));
    expect(refs("gateway")).toEqual([
      { name: "SVC_POSTGRES_URL", key: "uri", optional: true },
      { name: "SVC_CLICKHOUSE_URL", key: "SVC_CLICKHOUSE_URL", optional: true },
      { name: "SVC_BOOTSTRAP_KEY", key: "SVC_BOOTSTRAP_KEY", optional: true },
    ]);
    expect(refs("scheduler")).toEqual([
      { name: "SVC_POSTGRES_URL", key: "uri", optional: true },
      { name: "SVC_CLICKHOUSE_URL", key: "SVC_CLICKHOUSE_URL", optional: true },
    ]);
    expect(refs("crawler")).toEqual([]);
    for (const role of ROLES) {
      for (const e of container(ms, role).env ?? []) expect(e.valueFrom?.secretKeyRef?.name).toBe("svc-credentials");
      expect(deployment(ms, role).template.metadata.annotations?.["checksum/secret"]).toBeUndefined();
    }
    expectSoundEnvironments(ms);
  });
});


describe("per-role overrides", () => {
  it("win over `config` for their role only, and move the ports, probes, Services and grace periods with them", () => {
    const ms = render(ENGINES, OVERRIDES);
    expectSoundEnvironments(ms);
    const gateway = roleConfig(ms, "gateway");
    const scheduler = roleConfig(ms, "scheduler");
    const crawler = roleConfig(ms, "crawler");
    expect([gateway.logLevel, scheduler.logLevel, crawler.logLevel]).toEqual(["debug", "warn", "warn"]);
    // Whole numbers of a values file stay whole (Helm reads them as floats: 1e+07 would stop Svc).
    // Every role receives them as written; each parses those it reads (a role ignores the others).
    for (const role of ROLES) {
      expect(roleEnv(ms, role).fromConfigMaps, role).toMatchObject({ SVC_MAX_BODY_BYTES: "10485760", SVC_KEY_CACHE_MS: "3600000" });
    }
    expect(crawler.crawl.maxBodyBytes).toBe(10485760);
    expect(gateway.keyCacheMs).toBe(3600000);
    expect([gateway.allowPrivateTargets, crawler.allowPrivateTargets]).toEqual([true, true]);

    expect([gateway.port, gateway.adminPort]).toEqual([8081, 9100]);
    const gw = container(ms, "gateway");
    expect([port(gw, "http"), port(gw, "admin")]).toEqual([8081, 9100]);
    expect(service(ms, "acme-svc-gateway").ports[0]).toMatchObject({ port: 80, targetPort: "http" });
    expect(deployment(ms, "gateway").template.metadata.annotations?.["prometheus.io/port"]).toBe("9100");
    expect([scheduler.adminPort, crawler.adminPort]).toEqual([9464, 9464]);

    expect(port(container(ms, "scheduler"), "grpc")).toBe(7171);
    expect(service(ms, "acme-svc-scheduler").ports[0]).toMatchObject({ name: "grpc", port: 7171, targetPort: "grpc" });
    expect([gateway.schedulerAddress, crawler.schedulerAddress]).toEqual(["acme-svc-scheduler:7171", "acme-svc-scheduler:7171"]);
    expect(deployment(ms, "scheduler").replicas).toBe(2);

    expect([crawler.workerConcurrency, crawler.crawl.parseThreads, crawler.shutdownGraceMs]).toEqual([4, 2, 60000]);
    expect(roleEnv(ms, "gateway").names).not.toContain("SVC_WORKER_CONCURRENCY");
    expectGrace(ms, "crawler", 0);
    expect(deployment(ms, "crawler").template.spec.terminationGracePeriodSeconds).toBe(65);
    expectGrace(ms, "gateway", 5);
  });

  it("may name an outside scheduler instead of the release's", () => {
    const ms = render(ENGINES, { config: { SVC_SCHEDULER_ADDRESS: "scheduler.elsewhere.svc:7070" } });
    expect([roleConfig(ms, "gateway").schedulerAddress, roleConfig(ms, "crawler").schedulerAddress]).toEqual(["scheduler.elsewhere.svc:7070", "scheduler.elsewhere.svc:7070"]);
  });
});

describe("values the chart refuses", () => {
  it("knows exactly Svc's variables: values.schema.json lists CONFIG_FIELDS, and a misspelt name stops the render", () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, CHART, "values.schema.json"), "utf8")) as { definitions: { svcName: { enum: string[] } } };
    expect([...schema.definitions.svcName.enum].sort()).toEqual([...SVC_NAMES].sort());
    expect(renderError({ config: { SVC_PROT: 8080 } })).toContain("SVC_PROT");
    expect(renderError({ crawler: { config: { SVC_WORKER_CONCURENCY: 4 } } })).toContain("SVC_WORKER_CONCURENCY");
    expect(renderError({ secret: { values: { SVC_POSTGRESS_URL: "postgres://x" } } })).toContain("SVC_POSTGRESS_URL");
    expect(renderError({ gatway: { replicaCount: 3 } })).toContain("gatway");
  });

  it("refuses credentials in the ConfigMaps", () => {
    expect(renderError({ config: { SVC_POSTGRES_URL: SECRETS.SVC_POSTGRES_URL } })).toContain("SVC_POSTGRES_URL carries credentials: set it under secret.values");
    expect(renderError({ gateway: { config: { SVC_BOOTSTRAP_KEY: SECRETS.SVC_BOOTSTRAP_KEY } } })).toContain("SVC_BOOTSTRAP_KEY carries credentials");
  });

  it("refuses listeners that the probes, the Services or Prometheus could not reach", () => {
    expect(renderError({ config: { SVC_ADMIN_HOST: "127.0.0.1" } })).toContain('SVC_ADMIN_HOST of the gateway is "127.0.0.1": in a pod it must be 0.0.0.0');
    // null removes a variable of `config`, as Helm removes any value: Svc's default applies.
    expect(renderError({ config: { SVC_ADMIN_HOST: null } })).toContain("SVC_ADMIN_HOST of the gateway is unset (Svc's default is 127.0.0.1)");
    expect(renderError({ gateway: { config: { SVC_HOST: "127.0.0.1" } } })).toContain('SVC_HOST of the gateway is "127.0.0.1"');
    expect(renderError({ scheduler: { config: { SVC_GRPC_LISTEN: "127.0.0.1:7070" } } })).toContain('the host of SVC_GRPC_LISTEN of the scheduler is "127.0.0.1"');
    expect(renderError({ config: { SVC_PORT: 0 } })).toContain('SVC_PORT of the gateway is "0": a pod needs a fixed port');
    expect(renderError({ gateway: { config: { SVC_ADMIN_PORT: 8080 } } })).toContain("SVC_PORT and SVC_ADMIN_PORT of the gateway are both 8080");
    expect(render({ config: { SVC_ADMIN_HOST: "::", SVC_HOST: "::" } }).length).toBeGreaterThan(0);
  });
});

/**
 * The kubernetes-models class of a core manifest (its schemas, compiled, ship in the package:
 * nothing is fetched), or null for the custom resources the chart renders for operators'
 * controllers (Prometheus operator, KEDA), whose shape the tests above and below hold instead. The
 * package checks types, required fields, enums and formats, not unknown fields: those are caught by
 * kube-strict (test/harness/kube-strict.ts), which decodes each core manifest into its k8s.io/api type.
 */
const CUSTOM_KINDS = new Set(["monitoring.coreos.com/v1 ServiceMonitor", "monitoring.coreos.com/v1 PrometheusRule", "keda.sh/v1alpha1 ScaledObject"]);
async function modelOf(m: { apiVersion: string; kind: string }): Promise<(new (data: unknown) => { validate(): void }) | null> {
  if (CUSTOM_KINDS.has(`${m.apiVersion} ${m.kind}`)) return null;
  const mod = (await import(/* @vite-ignore */ `kubernetes-models/${m.apiVersion}/${m.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = mod[m.kind];
  if (!model) throw new Error(`kubernetes-models has no ${m.apiVersion} ${m.kind}`);
  return model;
}

describe("the Kubernetes schemas", () => {
  it("accept every rendered manifest of every value set (kubernetes-models 4.5.1, and strictly the k8s.io/api types), and the checks reject broken ones", async () => {
    const sets = [[], [ENGINES], [ENGINES, HPA], [ENGINES, KEDA], [ENGINES, INGRESS], [ENGINES, MONITORED], [ENGINES, OVERRIDES], [EXISTING_SECRET], [ENGINES, ALL_ON]];
    const kinds = new Set<string>();
    for (const values of sets) {
      for (const m of render(...values)) {
        kinds.add(`${m.apiVersion} ${m.kind}`);
        const Model = await modelOf(m);
        if (!Model) continue;
        expect(() => new Model(m).validate(), `${m.kind}/${m.metadata.name} with ${JSON.stringify(values).slice(0, 120)}`).not.toThrow();
      }
    }
    expect([...kinds].sort()).toEqual([
      "apps/v1 Deployment",
      "autoscaling/v2 HorizontalPodAutoscaler",
      "keda.sh/v1alpha1 ScaledObject",
      "monitoring.coreos.com/v1 PrometheusRule",
      "monitoring.coreos.com/v1 ServiceMonitor",
      "networking.k8s.io/v1 Ingress",
      "policy/v1 PodDisruptionBudget",
      "v1 ConfigMap",
      "v1 Secret",
      "v1 Service",
      "v1 ServiceAccount",
    ]);
    // Strictly, as the API server decodes them (k8s.io/api types: unknown fields are errors too).
    for (const values of sets) {
      const ms = render(...values);
      const verdicts = validateStrict(kubeStrict, ms);
      expect(verdicts.filter((v) => v.verdict !== "ok" && !(v.verdict === "unknown" && CUSTOM_KINDS.has(v.manifest))), JSON.stringify(values).slice(0, 120)).toEqual([]);
      expect(verdicts).toHaveLength(ms.length);
    }
    const misspelt = structuredClone(find(render(ENGINES), "Deployment", "acme-svc-gateway")) as unknown as { spec: { template: { spec: { containers: { securityContext: Record<string, unknown> }[] } } } };
    misspelt.spec.template.spec.containers[0]!.securityContext = { readOnlyRootFS: true };
    expect(validateStrict(kubeStrict, [misspelt])).toEqual([
      { verdict: "error", manifest: "Deployment/acme-svc-gateway", message: 'strict decoding error: unknown field "spec.template.spec.containers[0].securityContext.readOnlyRootFS"' },
    ]);
    const broken = structuredClone(find(render(ENGINES), "Deployment", "acme-svc-crawler")) as unknown as { spec: { template: { spec: { containers: { ports: { containerPort: unknown }[] }[] } } } };
    broken.spec.template.spec.containers[0]!.ports[0]!.containerPort = "admin";
    const Model = (await modelOf({ apiVersion: "apps/v1", kind: "Deployment" }))!;
    expect(() => new Model(broken).validate()).toThrow(/containerPort must be integer/);
  });
});

describe("pod security and resources", () => {
  it("run every role as non-root on a read-only root file system, without privilege escalation or capabilities, with a writable /tmp", () => {
    for (const values of [[ENGINES], [ENGINES, OVERRIDES], [ENGINES, KEDA]]) {
      const ms = render(...values);
      for (const role of ROLES) {
        const pod = deployment(ms, role).template.spec as unknown as { securityContext: unknown; volumes: { name: string; emptyDir?: unknown }[]; automountServiceAccountToken: boolean };
        expect(pod.securityContext, role).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
        expect(pod.automountServiceAccountToken, role).toBe(false);
        const c = container(ms, role) as Container & { securityContext: unknown; volumeMounts: { name: string; mountPath: string }[] };
        expect(c.securityContext, role).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
        // The distributed roles keep nothing on disk (their store is Postgres); Node and Chromium write temporary files only.
        expect(c.volumeMounts, role).toContainEqual({ name: "tmp", mountPath: "/tmp" });
        expect(pod.volumes, role).toContainEqual({ name: "tmp", emptyDir: {} });
      }
    }
  });

  it("request for each role what it was measured to use, and limit its memory above that", () => {
    const ms = render(ENGINES);
    const got = Object.fromEntries(ROLES.map((role) => [role, (container(ms, role) as Container & { resources: unknown }).resources]));
    // docs/operations.md: idle RSS of a gateway 134 MB (its limit also holds the image utilities' child, killed past 512 MB), a scheduler 101 MB, a crawler without a browser 205–218 MB.
    expect(got).toEqual({
      gateway: { requests: { cpu: "100m", memory: "192Mi" }, limits: { memory: "1Gi" } },
      scheduler: { requests: { cpu: "100m", memory: "160Mi" }, limits: { memory: "384Mi" } },
      crawler: { requests: { cpu: "500m", memory: "320Mi" }, limits: { memory: "768Mi" } },
    });
  });
});

describe("crawler autoscaling on Kafka consumer lag (KEDA)", () => {
  it("renders a ScaledObject on the crawlers' groups and topics instead of the CPU autoscaler", () => {
    const ms = render(ENGINES, KEDA, { config: { SVC_KAFKA_TOPIC_PREFIX: "acme." } });
    expect(ms.filter((m) => m.kind === "HorizontalPodAutoscaler")).toEqual([]);
    expect(deployment(ms, "crawler").replicas).toBeUndefined();
    const so = find(ms, "ScaledObject", "acme-svc-crawler");
    expect(so.apiVersion).toBe("keda.sh/v1alpha1");
    // The names the crawler's consumers use (bin/role.ts: group `${prefix}crawler.${topic}`).
    const trigger = (topic: string) => ({
      type: "kafka",
      metadata: {
        bootstrapServers: "kafka-0.kafka:9092,kafka-1.kafka:9092",
        topic: `acme.${topic}`,
        consumerGroup: `acme.crawler.${topic}`,
        lagThreshold: "40",
        offsetResetPolicy: "earliest",
        allowIdleConsumers: "false",
      },
    });
    expect(so.spec).toEqual({
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "acme-svc-crawler" },
      minReplicaCount: 2,
      maxReplicaCount: 12,
      pollingInterval: 30,
      cooldownPeriod: 300,
      advanced: { horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: "Pods", value: 1, periodSeconds: 120 }] } } } },
      triggers: [TOPICS.work, TOPICS.sync, TOPICS.stream].map(trigger),
    });
    expectSoundEnvironments(ms);
  });

  it("is refused without the brokers, beyond SVC_KAFKA_PARTITIONS, and on a topic crawlers do not consume", () => {
    expect(renderError(KEDA)).toContain("crawler.autoscaling.keda scales on Kafka consumer lag: set SVC_KAFKA_BROKERS");
    expect(renderError(ENGINES, KEDA, { config: { SVC_KAFKA_PARTITIONS: 8 } })).toContain("crawler.autoscaling.maxReplicas (12) is above SVC_KAFKA_PARTITIONS (8)");
    expect(renderError(ENGINES, KEDA, { crawler: { autoscaling: { keda: { topics: [TOPICS.results] } } } })).toContain("topics/0");
  });
});
