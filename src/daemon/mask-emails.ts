/**
 * Member e-mails on the status page, `/status` and `/api/runs` are masked (`a***@example.com`)
 * unless the operator opts in (`--ui-show-emails`): whoever can read the page does not need the
 * organization's member list.
 */
const EMAIL = /([A-Za-z0-9])[A-Za-z0-9._%+-]*@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})/g;

export function maskEmails(text: string): string {
  return text.replace(EMAIL, '$1***@$2');
}

/** Every string in a JSON value (keys included) with its e-mails masked. */
export function maskEmailsDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskEmails(value);
  if (Array.isArray(value)) return value.map(maskEmailsDeep);
  // (`Object.fromEntries` defines own properties: a `__proto__` key stays a key.)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskEmails(k), maskEmailsDeep(v)]));
  return value;
}
