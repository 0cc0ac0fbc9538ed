import { hostname } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { EtcdClient } from '../coord/etcd-client.js';
import { EtcdCoordinator } from '../coord/etcd.js';
import { LocalCoordinator } from '../coord/local.js';
import type { CoordinationObserver, Coordinator } from '../coord/types.js';
import type { Logger } from '../log/logger.js';
import { env, type CommonOptions } from './context.js';
import { parseDuration } from './duration.js';
import { err } from './output.js';

/** Where ownership lives (decision 21): etcd when endpoints are given, else the state folder's locks. */
export type CoordinationOptions = {
  etcdEndpoints?: string[];
  etcdCa?: string;
  etcdCert?: string;
  etcdKey?: string;
  etcdPrefix?: string;
  replicaId?: string;
  /** Lease TTL in ms. */
  leaseTtl?: number;
};

const duration = (name: string) => (value: string) => {
  try {
    return parseDuration(value);
  } catch {
    throw new InvalidArgumentError(`${name} must be a duration such as 15s`);
  }
};

/** The flags of `apply` and `daemon` that choose and reach the coordination backend. */
export function withCoordination(cmd: Command): Command {
  return cmd
    .option(
      '--etcd-endpoints <urls>',
      'comma-separated etcd client URLs: ownership of organizations on etcd (env DOCSYNC_ETCD_ENDPOINTS)',
      env('DOCSYNC_ETCD_ENDPOINTS'),
    )
    .option('--etcd-ca <file>', 'CA certificate (PEM) of etcd (env DOCSYNC_ETCD_CA)', env('DOCSYNC_ETCD_CA'))
    .option(
      '--etcd-cert <file>',
      'client certificate (PEM) for etcd (env DOCSYNC_ETCD_CERT)',
      env('DOCSYNC_ETCD_CERT'),
    )
    .option('--etcd-key <file>', 'client key (PEM) for etcd (env DOCSYNC_ETCD_KEY)', env('DOCSYNC_ETCD_KEY'))
    .option(
      '--etcd-prefix <prefix>',
      'key prefix in etcd (env DOCSYNC_ETCD_PREFIX)',
      env('DOCSYNC_ETCD_PREFIX') ?? '/docsync/',
    )
    .option(
      '--replica-id <id>',
      "this replica's name among replicas (env DOCSYNC_REPLICA_ID; default: host name)",
      env('DOCSYNC_REPLICA_ID'),
    )
    .option(
      '--lease-ttl <duration>',
      'etcd lease TTL (env DOCSYNC_LEASE_TTL)',
      duration('--lease-ttl'),
      parseDuration(env('DOCSYNC_LEASE_TTL') ?? '15s'),
    );
}

export function coordinationOptions(o: Record<string, unknown>): CoordinationOptions {
  const endpoints = String(o['etcdEndpoints'] ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  const str = (k: string) => (typeof o[k] === 'string' && o[k] !== '' ? { [k]: o[k] as string } : {});
  return {
    ...(endpoints.length > 0 ? { etcdEndpoints: endpoints } : {}),
    ...str('etcdCa'),
    ...str('etcdCert'),
    ...str('etcdKey'),
    ...str('etcdPrefix'),
    ...str('replicaId'),
    ...(typeof o['leaseTtl'] === 'number' ? { leaseTtl: o['leaseTtl'] } : {}),
  };
}

function etcdCoordinator(
  opts: CoordinationOptions,
  role: 'replica' | 'cli',
  replica: string,
  logger: Logger,
  observer?: CoordinationObserver,
): EtcdCoordinator {
  const ttlMs = opts.leaseTtl ?? 15_000;
  const client = new EtcdClient({
    endpoints: opts.etcdEndpoints!,
    ...(opts.etcdCa ? { caFile: opts.etcdCa } : {}),
    ...(opts.etcdCert ? { certFile: opts.etcdCert } : {}),
    ...(opts.etcdKey ? { keyFile: opts.etcdKey } : {}),
    requestTimeoutMs: Math.min(5000, Math.max(500, Math.floor(ttlMs / 3))),
  });
  return new EtcdCoordinator({
    client,
    replica,
    role,
    ttlMs,
    logger,
    ...(opts.etcdPrefix ? { prefix: opts.etcdPrefix } : {}),
    ...(observer ? { observer } : {}),
  });
}

/** `apply`: claims the organizations it writes for one run (etcd), or takes their lock files. */
export async function makeCliCoordinator(
  opts: CommonOptions & CoordinationOptions,
  logger: Logger,
): Promise<Coordinator> {
  if (!opts.etcdEndpoints)
    return new LocalCoordinator(opts.stateDir, 'docsync apply', (message) => err(message));
  const replica = `${opts.replicaId ?? hostname()}:apply-${process.pid}`;
  const coordinator = etcdCoordinator(opts, 'cli', replica, logger);
  await coordinator.start();
  return coordinator;
}

/**
 * `daemon`: a replica among others on etcd, or the only daemon on its state folder (a second one
 * on the same folder refuses to start).
 */
export async function makeDaemonCoordinator(
  opts: CommonOptions & CoordinationOptions,
  logger: Logger,
  observer: CoordinationObserver,
): Promise<Coordinator> {
  if (!opts.etcdEndpoints) {
    const local = new LocalCoordinator(
      opts.stateDir,
      'docsync daemon',
      (message) => logger.warn({ message }, 'stale lock taken over'),
      opts.replicaId ?? hostname(),
      observer,
    );
    await local.startDaemon();
    return local;
  }
  const coordinator = etcdCoordinator(opts, 'replica', opts.replicaId ?? hostname(), logger, observer);
  await coordinator.start();
  return coordinator;
}
