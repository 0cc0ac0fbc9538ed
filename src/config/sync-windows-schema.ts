import { z } from 'zod';
import { CronError, knownTimeZone, parseCron } from '../policy/cron.js';
import { parseWindowDuration } from '../policy/sync-windows.js';

/** A check of a string that throws the reason: a zod issue at the string's own key. */
const checked = (check: (text: string) => unknown) =>
  z.string().superRefine((text, ctx) => {
    try {
      check(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });

/** `policy.syncWindows[]`: when apply may run (Argo CD's sync windows; src/policy/sync-windows.ts). */
export const SyncWindowSchema = z
  .strictObject({
    kind: z
      .enum(['allow', 'deny'])
      .describe(
        'deny: no apply while the window is open. allow: when any allow window exists, apply only while one is open.',
      ),
    schedule: checked((text) => {
      try {
        parseCron(text);
      } catch (error) {
        if (error instanceof CronError) throw new Error(`schedule: ${error.message}`);
        throw error;
      }
    }).describe(
      'When the window opens: a five-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 22 * * 1-5".',
    ),
    duration: checked(parseWindowDuration).describe(
      'How long the window stays open from each start: 30m, 1h, 1h30m, 2d, 1w (at most 366 days).',
    ),
    manualSync: z
      .boolean()
      .optional()
      .describe(
        'Let a manual sync (`docsync apply`, `POST /api/orgs/{org}/sync`) through while this window blocks apply. Default false.',
      ),
    timeZone: checked((text) => {
      if (!knownTimeZone(text))
        throw new Error(`"${text}" is not a known time zone (an IANA name such as Europe/Paris, or UTC)`);
    })
      .optional()
      .describe('The time zone of the schedule (an IANA name). Default UTC.'),
  })
  .describe(
    "A sync window: the daemon's automatic apply runs only when the windows allow it (drift is still checked and reported).",
  );
