/** Where the config comes from, and which version of it is current. */
export type Revision = { id: string; subject?: string; /** Commit time, ISO 8601. */ time?: string };

export interface ConfigSource {
  readonly kind: 'git' | 'folder';
  /** Folder holding the config files (for git: the checkout's sub-path). */
  readonly configDir: string;
  /** Bring the source up to date; returns the current revision. Throws when it cannot. */
  refresh(): Promise<Revision>;
  /** Call `onChange` when the source changes by itself (folder watching); returns a stop function. */
  watch?(onChange: () => void): Promise<() => Promise<void>>;
  /** Stop any work in flight (a hanging git fetch); called once when the daemon stops. */
  stop?(): Promise<void>;
  /** Safe to log: no credentials. */
  describe(): Record<string, string>;
}
