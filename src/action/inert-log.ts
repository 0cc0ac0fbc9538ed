import { randomUUID } from 'node:crypto';

/**
 * Text for the job log in which no line is a workflow command (`::error`, `::add-mask`,
 * `::set-output`...): between `::stop-commands::TOKEN` and `::TOKEN::` the runner runs none, and
 * the token is a fresh random UUID the text cannot know (GitHub's own advice for echoing
 * untrusted output).
 */
export function inertLog(text: string, token: string = randomUUID()): string {
  if (text === '') return '';
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `::stop-commands::${token}\n${body}::${token}::\n`;
}
