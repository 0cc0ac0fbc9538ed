import { loadConfigFromBuffers } from '../../src/config/load.js';

/** The desired state of one `org.yaml` given as text; a config with issues throws them. */
export function desiredFromYaml(text: string, env: NodeJS.ProcessEnv = process.env) {
  const r = loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(text) }], env);
  if (!r.desired) throw new Error(JSON.stringify(r.issues));
  return r.desired;
}
