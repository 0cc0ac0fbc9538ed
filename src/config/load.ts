import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { certificateHash } from '../model/certificate.js';
import type { CertificateRef } from '../model/desired.js';
import type { DesiredState } from '../model/desired.js';
import type { ConfigIssue } from './issues.js';
import { normalize } from './normalize.js';
import { ConfigFileSchema } from './schema.js';
import { checkSemantics, type ParsedConfig } from './semantic.js';
import { locate, parseYamlFile } from './yaml-file.js';
import { zodToIssues } from './zod-issues.js';

export type LoadResult = {
  desired: DesiredState | null;
  issues: ConfigIssue[];
  files: string[];
};

const MAX_FILES = 10_000;

/** Every `*.yaml`/`*.yml` under `dir`, recursively, sorted by path; hidden folders and node_modules skipped. */
export async function listConfigFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(current: string): Promise<void> {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && /\.ya?ml$/i.test(entry.name)) out.push(full);
      if (out.length > MAX_FILES) return;
    }
  }
  await walk(dir);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const CERTIFICATE_MAX = 10_000;

/**
 * Read each SAML certificate (a file next to the YAML, or an environment variable) to hash it.
 * Only the hash and where it comes from enter the desired state, never the content.
 */
function resolveCertificates(
  parsed: (ParsedConfig & { path?: string | undefined })[],
  env: NodeJS.ProcessEnv,
): { issues: ConfigIssue[]; map: Map<NonNullable<ParsedConfig['config']['saml']>[number], CertificateRef> } {
  const issues: ConfigIssue[] = [];
  const map = new Map<NonNullable<ParsedConfig['config']['saml']>[number], CertificateRef>();
  for (const { yaml, config, path } of parsed) {
    config.saml?.forEach((provider, i) => {
      const cert = provider.certificate;
      if (!cert) return;
      const at = ['saml', i, 'certificate'];
      const fail = (message: string, code: ConfigIssue['code'] = 'read-failed') => {
        issues.push({
          severity: 'error',
          code,
          file: yaml.file,
          ...locate(yaml, at),
          path: `saml[${i}].certificate`,
          message,
        });
      };
      let content: string;
      let ref: { source: 'file'; path: string } | { source: 'env'; name: string };
      if ('file' in cert) {
        const full = isAbsolute(cert.file) ? cert.file : resolve(dirname(path ?? yaml.file), cert.file);
        try {
          content = readFileSync(full, 'utf8');
        } catch (error) {
          return fail(
            `cannot read certificate file ${cert.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
          );
        }
        // Relative to the working directory when inside it, so plans do not depend on where the repo is checked out.
        const rel = relative(process.cwd(), full);
        ref = { source: 'file', path: rel.startsWith('..') || isAbsolute(rel) ? full : rel };
      } else {
        const value = env[cert.env];
        if (value === undefined || value.trim() === '')
          return fail(`environment variable ${cert.env} is not set`);
        content = value;
        ref = { source: 'env', name: cert.env };
      }
      if (content.length > CERTIFICATE_MAX)
        return fail(`certificate is longer than ${CERTIFICATE_MAX} characters`, 'too-long');
      map.set(provider, { ...ref, sha256: certificateHash(content) });
    });
  }
  return { issues, map };
}

/** Validate files already in memory (the daemon and tests use this; `loadConfig` reads them from disk). */
export function loadConfigFromBuffers(
  entries: { file: string; bytes: Buffer; path?: string }[],
  env: NodeJS.ProcessEnv = process.env,
): LoadResult {
  const issues: ConfigIssue[] = [];
  const parsed: (ParsedConfig & { path?: string | undefined })[] = [];
  for (const { file, bytes, path } of entries) {
    const yaml = parseYamlFile(file, bytes);
    if (Array.isArray(yaml)) {
      issues.push(...yaml);
      continue;
    }
    const result = ConfigFileSchema.safeParse(yaml.value);
    if (!result.success) {
      issues.push(...zodToIssues(ConfigFileSchema, yaml, result.error));
      continue;
    }
    parsed.push({ yaml, config: result.data, path });
  }
  issues.push(...checkSemantics(parsed));
  const certificates = resolveCertificates(parsed, env);
  issues.push(...certificates.issues);
  const files = entries.map((e) => e.file);
  if (issues.some((i) => i.severity === 'error')) return { desired: null, issues, files };
  return {
    desired: normalize(
      parsed.map((p) => p.config),
      certificates.map,
    ),
    issues,
    files,
  };
}

/** Load and validate the config folder. Never throws for bad input: problems come back as issues. */
export async function loadConfig(dir: string, cwd = process.cwd()): Promise<LoadResult> {
  const shown = (file: string) => relative(cwd, file) || file;
  const noConfig = (message: string): LoadResult => ({
    desired: null,
    files: [],
    issues: [
      { severity: 'error', code: 'no-config', file: shown(dir), line: 1, column: 1, path: '', message },
    ],
  });
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return noConfig('not a directory');
  } catch {
    return noConfig('config directory does not exist');
  }
  const files = await listConfigFiles(dir);
  if (files.length === 0) return noConfig('no *.yaml or *.yml files in the config directory');
  const entries: { file: string; bytes: Buffer; path: string }[] = [];
  const readIssues: ConfigIssue[] = [];
  for (const file of files) {
    try {
      entries.push({ file: shown(file), bytes: await readFile(file), path: file });
    } catch (error) {
      readIssues.push({
        severity: 'error',
        code: 'read-failed',
        file: shown(file),
        line: 1,
        column: 1,
        path: '',
        message: `cannot read file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      });
    }
  }
  const result = loadConfigFromBuffers(entries);
  if (readIssues.length > 0)
    return { desired: null, issues: [...readIssues, ...result.issues], files: result.files };
  return result;
}
