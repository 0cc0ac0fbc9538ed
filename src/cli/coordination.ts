import { hostname } from 'node:os';
import { EtcdClient } from '../coord/etcd-client.js';
import { EtcdCoordinator } from '../coord/etcd.js';
import { localDaemonCoordinator, LocalCoordinator } from '../coord/local.js';
import type { CoordinationObserver, Coordinator } from '../coord/types.js';
import type { Logger } from '../log/logger.js';
import type { CoordinationOptions } from './coordination-flags.js';
import type { CommonOptions } from './context.js';
import { err } from './output.js';

export type { CoordinationOptions } from './coordination-flags.js';

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
  /** The daemon's own (per-source) state folder, where its daemon lock lives. */
  ownDir = opts.stateDir,
): Promise<Coordinator> {
  if (!opts.etcdEndpoints) {
    const local = localDaemonCoordinator(
      opts.stateDir,
      logger,
      opts.replicaId ?? hostname(),
      observer,
      ownDir,
    );
    await local.startDaemon();
    return local;
  }
  const coordinator = etcdCoordinator(opts, 'replica', opts.replicaId ?? hostname(), logger, observer);
  await coordinator.start();
  return coordinator;
}
