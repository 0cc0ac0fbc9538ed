import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;
/** Where .github/workflows/release.yml publishes, for this repository (github.com/docsync/docsync). */
const IMAGE = 'ghcr.io/docsync/docsync';
const ACTION = 'docsync/docsync';

describe('the container image', () => {
  const dockerfile = read('Dockerfile');

  it('builds on a supported Node.js LTS pinned to an exact release and digest, runs as non-root, carries OCI labels', () => {
    const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) {
      const m = /^node:(\d+)\.(\d+)\.(\d+)-[a-z]+(-slim)?@sha256:[0-9a-f]{64}$/.exec(base);
      expect(m, `${base} is not an exact node:X.Y.Z-<debian>@sha256:<digest> reference`).not.toBeNull();
      const major = Number(m![1]);
      expect(major >= 22 && major % 2 === 0, `Node ${major} is not a supported LTS`).toBe(true);
    }
    expect(new Set(bases).size).toBe(1);
    const user = /^USER\s+(\S+)/m.exec(dockerfile)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    for (const label of ['title', 'description', 'licenses', 'version', 'revision', 'source'])
      expect(dockerfile).toContain(`org.opencontainers.image.${label}=`);
  });

  it('is the one the release workflow publishes, with the npm package, both with provenance', () => {
    const release = parse(read('.github/workflows/release.yml'));
    expect(release.on.push.tags).toEqual(['v*.*.*']);
    const steps = Object.values(release.jobs).flatMap((j: any) => j.steps);
    const meta = steps.find((s: any) => String(s.uses).startsWith('docker/metadata-action'));
    expect(meta.with.images).toBe('ghcr.io/${{ github.repository }}');
    const build = steps.find((s: any) => String(s.uses).startsWith('docker/build-push-action'));
    expect(build.with.platforms).toBe('linux/amd64,linux/arm64');
    expect(build.with.push).toBe(true);
    expect(steps.some((s: any) => /npm publish --provenance/.test(s.run ?? ''))).toBe(true);
    expect(release.jobs.npm.permissions['id-token']).toBe('write');
    expect(release.jobs.image.permissions.packages).toBe('write');
  });

  it('is what the Kubernetes example and README name; the pod gets no service account token', () => {
    const deployment = parse(read('examples/kubernetes/deployment.yaml'));
    const pod = deployment.spec.template.spec;
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.containers[0].image).toBe(`${IMAGE}:${version}`);
    expect(read('README.md')).toContain(`${IMAGE}:${version}`);
  });
});

describe('CI and the GitHub Action examples', () => {
  it('CI runs .ci/run on Node 20 and 22', () => {
    const ci = parse(read('.github/workflows/ci.yml'));
    expect(ci.jobs.check.strategy.matrix.node).toEqual([20, 22]);
    expect(ci.jobs.check.steps.some((s: any) => s.run === 'bash .ci/run')).toBe(true);
  });

  it("the examples use this repository's action at the released version, never an npm install", () => {
    for (const file of ['plan.yml', 'apply.yml', 'drift.yml']) {
      const text = read(`examples/github-actions/${file}`);
      expect(text, file).not.toMatch(/npm (install|i) /);
      const uses = [...text.matchAll(/uses: (docsync\/\S+)/g)].map((m) => m[1]);
      expect(uses.length, file).toBeGreaterThan(0);
      for (const u of uses) expect(u).toBe(`${ACTION}@v${version}`);
    }
    const action = parse(read('action.yml'));
    expect(action.runs).toEqual({ using: 'node24', main: 'dist-action/index.js' });
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['command', 'config', 'api-url', 'api-flavor', 'comment']),
    );
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['has-changes', 'plan-file']));
  });
});

describe('the npm package', () => {
  it('ships the built CLI; its contents are checked on npm pack by the release dry run', () => {
    // `npm pack --dry-run` costs about a second of CPU: the release dry run
    // (test/ci/release.test.ts) packs once and checks that the package holds what the CLI reads at
    // run time (the demo's seed and config, the schema, the README) and no sources, tests or
    // scripts, on a clone of HEAD.
    expect((JSON.parse(read('package.json')) as { files: string[] }).files).toContain('dist');
  });
});
