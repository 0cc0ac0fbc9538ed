import { createServer } from 'node:net';

/** Whether something already listens on host:port (the listen error's code), or null when free. */
export async function portTaken(host: string, port: number): Promise<string | null> {
  if (port === 0) return null;
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}
