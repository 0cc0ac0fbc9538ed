/** The coordination flags of `apply` and `daemon` (decision 21), without loading the backends. */
import type { Command } from 'commander';
import { duration, httpUrls, setting } from './settings.js';

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

/** The flags of `apply` and `daemon` that choose and reach the coordination backend. */
export function withCoordination(cmd: Command): Command {
  return cmd
    .addOption(
      setting(
        '--etcd-endpoints <urls>',
        'comma-separated etcd client URLs: ownership of organizations on etcd',
        {
          env: 'DOCSYNC_ETCD_ENDPOINTS',
          parse: httpUrls,
        },
      ),
    )
    .addOption(setting('--etcd-ca <file>', 'CA certificate (PEM) of etcd', { env: 'DOCSYNC_ETCD_CA' }))
    .addOption(
      setting('--etcd-cert <file>', 'client certificate (PEM) for etcd', { env: 'DOCSYNC_ETCD_CERT' }),
    )
    .addOption(setting('--etcd-key <file>', 'client key (PEM) for etcd', { env: 'DOCSYNC_ETCD_KEY' }))
    .addOption(
      setting('--etcd-prefix <prefix>', 'key prefix in etcd', {
        env: 'DOCSYNC_ETCD_PREFIX',
        default: '/docsync/',
      }),
    )
    .addOption(
      setting('--replica-id <id>', "this replica's name among replicas (default: host name)", {
        env: 'DOCSYNC_REPLICA_ID',
      }),
    )
    .addOption(
      setting('--lease-ttl <duration>', 'etcd lease TTL', {
        env: 'DOCSYNC_LEASE_TTL',
        parse: duration,
        default: 15_000,
        shown: '15s',
      }),
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
