#!/usr/bin/env node
// Runs a rendered Helm manifest's Jobs and Deployments on a Docker engine the way a kubelet would run their pods, and
// fails when one does not come up: same image (imagePullPolicy Never: the local one), environment (values, Secret
// references, $(VAR) expansion), command and args, user and fsGroup, read-only root, dropped capabilities, emptyDir
// and Secret volumes, memory and CPU limits, the Service names as network aliases, and the probes (httpGet, tcpSocket,
// exec) with their periods, timeouts and thresholds. It is not Kubernetes: no scheduler, no restarts, no Service
// load balancing, no admission; docs/deploy.md says what that leaves unproven.
//
//   node scripts/chart-on-engine.mjs MANIFEST.json --network NAME [--prefix chart-]
//
// MANIFEST.json: the rendered objects as a JSON array (deploy-tests HelmChartTest writes
// deploy-tests/target/chart-on-engine/manifest.json). Jobs run first, to completion (a pre-install hook's order);
// then every Deployment's pod starts, and each must pass its startup probe, then readiness and liveness, within the
// time its probe settings allow. Every container it started is removed on exit. Exit 0: all passed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import net from 'node:net';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const manifestPath = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
const network = option('--network');
const prefix = option('--prefix', 'chart-');
if (!manifestPath || !network) {
  console.error('usage: chart-on-engine.mjs MANIFEST.json --network NAME [--prefix chart-]');
  process.exit(2);
}
const LABEL = 'dev.zerolayer.chart-on-engine';
const objects = JSON.parse(readFileSync(manifestPath, 'utf8'));
const started = Date.now();
const log = (message) => console.log(`[chart-on-engine ${String(Math.round((Date.now() - started) / 1000)).padStart(4)}s] ${message}`);
const volumesDir = mkdtempSync(join(tmpdir(), 'chart-on-engine-'));

function docker(...argv) {
  return execFileSync('docker', argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function dockerStatus(...argv) {
  const run = spawnSync('docker', argv, { encoding: 'utf8' });
  return { code: run.status, out: (run.stdout ?? '').trim(), err: (run.stderr ?? '').trim() };
}

function cleanUp() {
  const ids = dockerStatus('ps', '-aq', '--filter', `label=${LABEL}`).out.split('\n').filter(Boolean);
  if (ids.length) {
    dockerStatus('rm', '-f', ...ids);
  }
  rmSync(volumesDir, { recursive: true, force: true });
}

function fail(message, container) {
  if (container) {
    const logs = dockerStatus('logs', '--tail', '40', container);
    console.error(`---- last log lines of ${container}\n${logs.out}\n${logs.err}`);
  }
  throw new Error(message);
}

// ---- the manifest's pieces ----

const secrets = new Map();
for (const o of objects.filter((o) => o.kind === 'Secret')) {
  const values = {};
  for (const [k, v] of Object.entries(o.data ?? {})) values[k] = Buffer.from(String(v), 'base64').toString('utf8');
  for (const [k, v] of Object.entries(o.stringData ?? {})) values[k] = String(v);
  secrets.set(o.metadata.name, values);
}
const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
const services = objects.filter((o) => o.kind === 'Service');

/** Kubernetes' $(VAR) expansion: defined names are replaced, $$( escapes, unknown references stay as written. */
function expand(text, env) {
  return String(text).replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name) => {
    if (match === '$$(') return '$(';
    return Object.prototype.hasOwnProperty.call(env, name) ? env[name] : match;
  });
}

function resolveEnv(container, podName) {
  const env = {};
  for (const e of container.env ?? []) {
    if ('value' in e) {
      env[e.name] = expand(e.value ?? '', env);
      continue;
    }
    const from = e.valueFrom ?? {};
    if (from.secretKeyRef || from.configMapKeyRef) {
      const ref = from.secretKeyRef ?? from.configMapKeyRef;
      const store = from.secretKeyRef ? secrets.get(ref.name) : configMaps.get(ref.name);
      const value = store?.[ref.key];
      if (value === undefined) {
        if (ref.optional) continue;
        fail(`${podName}: env ${e.name} refers to ${ref.name}/${ref.key}, which the manifest does not define`);
      }
      env[e.name] = value;
    } else if (from.fieldRef) {
      const field = from.fieldRef.fieldPath;
      const known = { 'metadata.name': podName, 'metadata.namespace': 'default', 'spec.nodeName': 'engine' };
      if (!(field in known)) fail(`${podName}: env ${e.name}: fieldRef ${field} is not supported here`);
      env[e.name] = known[field];
    } else {
      fail(`${podName}: env ${e.name} has a valueFrom this runner does not know: ${JSON.stringify(from)}`);
    }
  }
  for (const source of container.envFrom ?? []) {
    const store = source.secretRef ? secrets.get(source.secretRef.name) : configMaps.get(source.configMapRef?.name);
    Object.assign(env, store ?? {});
  }
  return env;
}

function bytes(quantity) {
  const m = /^([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!m) fail(`unreadable quantity ${quantity}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2]] ?? 1;
  return Math.round(Number(m[1]) * unit);
}

function cpus(quantity) {
  const s = String(quantity);
  return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}

function aliases(podLabels) {
  return services
    .filter((s) => Object.entries(s.spec?.selector ?? {}).every(([k, v]) => podLabels[k] === v))
    .map((s) => s.metadata.name);
}

/** docker run arguments for one container of a pod, as a kubelet would set it up. */
function runArgs(name, pod, podLabels, container) {
  const podSecurity = pod.securityContext ?? {};
  const security = container.securityContext ?? {};
  const argv = ['run', '-d', '--name', name, '--label', `${LABEL}=1`, '--network', network, '--hostname', name];
  for (const alias of aliases(podLabels)) argv.push('--network-alias', alias);

  const image = container.image;
  if (container.imagePullPolicy === 'Always') fail(`${name}: imagePullPolicy Always cannot be honoured offline`);
  if (dockerStatus('image', 'inspect', image).code !== 0) fail(`${name}: image ${image} is not on the engine`);

  const user = security.runAsUser ?? podSecurity.runAsUser;
  const group = security.runAsGroup ?? podSecurity.runAsGroup;
  if (user !== undefined) argv.push('--user', group !== undefined ? `${user}:${group}` : String(user));
  if (podSecurity.fsGroup !== undefined) argv.push('--group-add', String(podSecurity.fsGroup));
  const nonRoot = security.runAsNonRoot ?? podSecurity.runAsNonRoot;
  if (nonRoot) {
    const effective = user ?? docker('image', 'inspect', '-f', '{{.Config.User}}', image).split(':')[0];
    if (effective === undefined || effective === '' || effective === 0 || effective === '0' || effective === 'root') {
      fail(`${name}: runAsNonRoot, but the container would run as root`);
    }
  }
  if (security.readOnlyRootFilesystem) argv.push('--read-only');
  if (security.allowPrivilegeEscalation === false) argv.push('--security-opt', 'no-new-privileges');
  for (const cap of security.capabilities?.drop ?? []) argv.push('--cap-drop', cap);
  for (const cap of security.capabilities?.add ?? []) argv.push('--cap-add', cap);

  const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    if (!volume) fail(`${name}: volumeMount ${mount.name} names no volume of the pod`);
    if (volume.emptyDir) {
      // an emptyDir is writable by the pod's fsGroup and allows exec (native libraries are unpacked to /tmp)
      argv.push('--tmpfs', `${mount.mountPath}:rw,exec,mode=1777`);
    } else if (volume.secret || volume.configMap) {
      const store = volume.secret ? secrets.get(volume.secret.secretName) : configMaps.get(volume.configMap.name);
      if (!store) fail(`${name}: volume ${mount.name} refers to an object the manifest does not define`);
      const dir = join(volumesDir, name, mount.name);
      mkdirSync(dir, { recursive: true });
      const items = (volume.secret ?? volume.configMap).items ?? Object.keys(store).map((key) => ({ key, path: key }));
      for (const item of items) {
        mkdirSync(dirname(join(dir, item.path)), { recursive: true });
        writeFileSync(join(dir, item.path), store[item.key] ?? '', { mode: 0o644 });
      }
      argv.push('-v', `${dir}:${mount.mountPath}:ro`);
    } else {
      fail(`${name}: volume ${mount.name} is of a kind this runner does not support`);
    }
  }

  const limits = container.resources?.limits ?? {};
  if (limits.memory) argv.push('--memory', String(bytes(limits.memory)));
  if (limits.cpu) argv.push('--cpus', String(cpus(limits.cpu)));

  const env = resolveEnv(container, name);
  for (const [k, v] of Object.entries(env)) argv.push('-e', `${k}=${v}`);

  const command = (container.command ?? []).map((c) => expand(c, env));
  const commandArgs = (container.args ?? []).map((c) => expand(c, env));
  if (command.length) argv.push('--entrypoint', command[0]);
  argv.push(image, ...command.slice(1), ...commandArgs);
  return argv;
}

// ---- probes ----

function containerIp(name) {
  return docker('inspect', '-f', `{{(index .NetworkSettings.Networks "${network}").IPAddress}}`, name);
}

function port(container, value) {
  if (typeof value === 'number' || /^[0-9]+$/.test(String(value))) return Number(value);
  const named = (container.ports ?? []).find((p) => p.name === value);
  if (!named) fail(`${container.name}: probe port ${value} names no container port`);
  return named.containerPort;
}

async function probeOnce(name, container, probe) {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.httpGet) {
    const url = `http://${containerIp(name)}:${port(container, probe.httpGet.port)}${probe.httpGet.path ?? '/'}`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer();
      return { ok: response.status >= 200 && response.status < 400, detail: `GET ${url} ${response.status}` };
    } catch (error) {
      return { ok: false, detail: `GET ${url} ${error.cause?.code ?? error.name}` };
    }
  }
  if (probe.tcpSocket) {
    const host = containerIp(name);
    const p = port(container, probe.tcpSocket.port);
    const ok = await new Promise((resolve) => {
      const socket = net.connect({ host, port: p, timeout: timeoutMs }, () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
      socket.on('timeout', () => { socket.destroy(); resolve(false); });
    });
    return { ok, detail: `tcp ${host}:${p}` };
  }
  if (probe.exec) {
    const run = dockerStatus('exec', name, ...probe.exec.command);
    return { ok: run.code === 0, detail: `exec ${probe.exec.command.join(' ')} → ${run.code}` };
  }
  fail(`${name}: a probe of a kind this runner does not know`);
}

function running(name) {
  const state = dockerStatus('inspect', '-f', '{{.State.Status}} {{.State.ExitCode}}', name).out;
  return state.startsWith('running') ? null : state;
}

/** Probes as the kubelet does: after the initial delay, every period; success after successThreshold in a row. */
async function awaitProbe(name, container, kind, probe, budgetSeconds) {
  if (!probe) return `no ${kind} probe`;
  const period = (probe.periodSeconds ?? 10) * 1000;
  const deadline = Date.now() + (probe.initialDelaySeconds ?? 0) * 1000 + budgetSeconds * 1000;
  await new Promise((r) => setTimeout(r, (probe.initialDelaySeconds ?? 0) * 1000));
  let last = '';
  let successes = 0;
  while (Date.now() < deadline) {
    const stopped = running(name);
    if (stopped) fail(`${name}: the container stopped (${stopped}) before its ${kind} probe passed`, name);
    const result = await probeOnce(name, container, probe);
    last = result.detail;
    successes = result.ok ? successes + 1 : 0;
    if (successes >= (probe.successThreshold ?? 1)) return last;
    await new Promise((r) => setTimeout(r, period));
  }
  fail(`${name}: ${kind} probe did not pass within ${budgetSeconds} s (last: ${last})`, name);
}

function podName(object) {
  return `${prefix}${object.metadata.name}`;
}

// ---- run ----

async function runJob(job) {
  const pod = job.spec.template.spec;
  const labels = job.spec.template.metadata?.labels ?? {};
  const name = podName(job);
  const deadline = (job.spec.activeDeadlineSeconds ?? 600) * 1000;
  for (const container of pod.containers) {
    docker(...runArgs(name, pod, labels, container));
    const until = Date.now() + deadline;
    let state;
    while ((state = running(name)) === null) {
      if (Date.now() > until) fail(`${name}: still running after activeDeadlineSeconds`, name);
      await new Promise((r) => setTimeout(r, 500));
    }
    if (!state.endsWith(' 0')) fail(`${name}: exited ${state}`, name);
    log(`Job ${job.metadata.name}: ${container.image} ${[...(container.command ?? []), ...(container.args ?? [])].join(' ')} → exit 0`);
    docker('rm', name);
  }
}

async function runDeployment(deployment) {
  const pod = deployment.spec.template.spec;
  const labels = deployment.spec.template.metadata?.labels ?? {};
  const name = podName(deployment);
  if ((pod.containers ?? []).length !== 1) fail(`${name}: one container per pod is what this runner checks`);
  const container = pod.containers[0];
  docker(...runArgs(name, pod, labels, container));
  const t0 = Date.now();
  const startup = container.startupProbe;
  const startupBudget = startup ? (startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3) : 0;
  const startupResult = await awaitProbe(name, container, 'startup', startup, startupBudget);
  const readiness = container.readinessProbe;
  const readyResult = await awaitProbe(name, container, 'readiness', readiness,
    Math.max(startupBudget, (readiness?.periodSeconds ?? 10) * (readiness?.failureThreshold ?? 3)));
  const liveness = container.livenessProbe;
  const liveResult = await awaitProbe(name, container, 'liveness', liveness,
    (liveness?.periodSeconds ?? 10) * (liveness?.failureThreshold ?? 3));
  return { name: deployment.metadata.name, image: container.image, seconds: Math.round((Date.now() - t0) / 1000),
    startupResult, readyResult, liveResult };
}

let exitCode = 0;
try {
  cleanUp();
  mkdirSync(volumesDir, { recursive: true });
  const jobs = objects.filter((o) => o.kind === 'Job');
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  if (!deployments.length) fail('the manifest has no Deployment');
  for (const job of jobs) await runJob(job);
  log(`starting ${deployments.length} Deployments' pods on network ${network}`);
  const results = await Promise.all(deployments.map(runDeployment));
  for (const r of results) {
    log(`Deployment ${r.name} (${r.image}) ready in ${r.seconds} s: startup ${r.startupResult}; readiness ${r.readyResult}; liveness ${r.liveResult}`);
  }
  log(`all ${jobs.length} Jobs and ${deployments.length} Deployments passed`);
} catch (error) {
  console.error(`[chart-on-engine] FAILED: ${error.message}`);
  exitCode = 1;
} finally {
  cleanUp();
}
process.exit(exitCode);
