/** The coordination flags of `apply` and `daemon` (decision 21), without loading the backends. */
import { InvalidArgumentError, type Command } from 'commander';
import { env } from './context.js';
import { parseDuration } from './duration.js';

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
