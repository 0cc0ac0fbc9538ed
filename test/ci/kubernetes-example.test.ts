import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseDuration } from '../../src/cli/duration.js';
import { createMetrics } from '../../src/daemon/metrics.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the Kubernetes example runs more than one replica safely (decision 21)', () => {
  const deployment = parse(read('examples/kubernetes/deployment.yaml'));
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env = new Map(container.env.map((e: { name: string; value?: string }) => [e.name, e.value]));

  it('two replicas on etcd, each with its own replica id', () => {
    expect(deployment.spec.replicas).toBe(2);
    expect(env.get('DOCSYNC_ETCD_ENDPOINTS')).toMatch(/^https?:\/\//);
    const id = container.env.find((e: { name: string }) => e.name === 'DOCSYNC_REPLICA_ID');
    expect(id.valueFrom.fieldRef.fieldPath).toBe('metadata.name');
  });

  it('the grace period outlasts the lease TTL plus the longest API call; preStop hands over', () => {
    const ttl = parseDuration(String(env.get('DOCSYNC_LEASE_TTL') ?? '15s')) / 1000;
    const args: string[] = container.args;
    const timeout = Number(args.find((a) => a.startsWith('--timeout='))?.split('=')[1] ?? 30);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(ttl + timeout);
    expect(container.lifecycle.preStop.exec.command.join(' ')).toContain('/coordination/release');
    expect(container.lifecycle.preStop.exec.command.join(' ')).toContain("'x-docsync-release':'1'");
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
  });

  it('a PodDisruptionBudget keeps one replica, and an etcd to point at', () => {
    const pdb = parse(read('examples/kubernetes/pdb.yaml'));
    expect(pdb.kind).toBe('PodDisruptionBudget');
    expect(pdb.spec.minAvailable).toBe(1);
    expect(pdb.spec.selector).toEqual(deployment.spec.selector);
    const etcd = parseAllDocuments(read('examples/kubernetes/etcd.yaml')).map((d) => d.toJS());
    const service = etcd.find((d) => d.kind === 'Service');
    expect(String(env.get('DOCSYNC_ETCD_ENDPOINTS'))).toContain(
      `${service.metadata.name}:${service.spec.ports[0].port}`,
    );
  });

  it('the alert examples use metrics the daemon exports, and wait longer than one poll interval', async () => {
    const rules = parse(read('examples/kubernetes/alerts.yaml')).spec.groups.flatMap(
      (g: { rules: { alert: string; expr: string }[] }) => g.rules,
    );
    expect(rules.map((r: { alert: string }) => r.alert)).toContain('DocsyncOrganizationNotSynced');
    const exported = new Set(
      (await createMetrics().registry.getMetricsAsJSON()).map((m: { name: string }) => m.name),
    );
    for (const { expr } of rules)
      for (const name of String(expr).match(/docsync_[a-z_]+/g) ?? [])
        expect(exported, name).toContain(name.replace(/_bucket$/, ''));
    const interval = parseDuration(
      String(container.args.find((a: string) => a.startsWith('--interval='))?.split('=')[1]),
    );
    const late = rules.find((r: { alert: string }) => r.alert === 'DocsyncOrganizationNotSynced').expr;
    const seconds = /> ([\d\s*]+)$/
      .exec(late)![1]!
      .split('*')
      .reduce((product: number, factor: string) => product * Number(factor), 1);
    expect(seconds * 1000).toBeGreaterThan(2 * interval);
  });
});
