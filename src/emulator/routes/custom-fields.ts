import type { CustomFieldValue } from '../../model/kinds.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { paginate } from '../paginate.js';
import type { EmuCustomField, EmuOrganization } from '../state.js';
import { findOrg, findSpaceAnywhere, newId, now } from '../store.js';
import {
  asBody,
  customFieldNamePattern,
  customFieldTypes,
  optEnum,
  optString,
  optStringArray,
  reqString,
} from '../validate.js';
import type { RouteDeps } from './context.js';

function checkValue(field: EmuCustomField, value: unknown, where: string): Exclude<CustomFieldValue, null> {
  const fail = (what: string) => badRequest(`${where}: ${what}`);
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('must be a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('must be a boolean');
      return value;
    case 'tags':
    case 'select:multi': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length > 256))
        throw fail('must be an array of strings of at most 256 characters');
      if (field.type === 'select:multi' && field.options && value.some((v) => !field.options!.includes(v)))
        throw fail(`must be among the options ${field.options.join(', ')}`);
      return value as string[];
    }
    default: {
      if (typeof value !== 'string') throw fail('must be a string');
      if (value.length > 256) throw fail('must be at most 256 characters');
      if (field.type === 'select:single' && field.options && !field.options.includes(value))
        throw fail(`must be one of the options ${field.options.join(', ')}`);
      return value;
    }
  }
}

export function registerCustomFields(deps: RouteDeps): void {
  registerFieldRoutes(deps);
  registerSpaceValues(deps);
}

/** The organization's custom fields. */
function registerFieldRoutes({ state, shapes, router }: RouteDeps): void {
  const base = '/orgs/:orgId/custom-fields';
  const field = (org: EmuOrganization, name: string) => {
    const f = org.customFields.find((x) => x.name === name);
    if (!f) throw notFound(`custom field ${name} not found`);
    return f;
  };
  router.on('GET', base, ({ params, query }) => {
    const org = findOrg(state(), params.orgId!);
    return {
      status: 200,
      body: paginate(org.customFields, query, (f) => shapes.customField(org, f)),
    };
  });
  router.on('POST', base, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const b = asBody(body, true);
    const name = reqString(b, 'name', { min: 1, max: 50, pattern: customFieldNamePattern });
    const type = optEnum(b, 'type', customFieldTypes, { required: true })!;
    const created: EmuCustomField = {
      id: newId('cf'),
      name,
      type,
      title: optString(b, 'title', { max: 100 }) ?? null,
      description: optString(b, 'description', { max: 200 }) ?? null,
      placeholder: optString(b, 'placeholder', { max: 100 }) ?? null,
      options: optStringArray(b, 'options', { min: 1, max: 50 }) ?? null,
      createdAt: now(),
      updatedAt: now(),
    };
    if (org.customFields.some((f) => f.name === name))
      throw conflict(`name: a custom field named ${name} exists`);
    org.customFields.push(created);
    return { status: 201, body: shapes.customField(org, created) };
  });
  router.on('GET', `${base}/:name`, ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    return { status: 200, body: shapes.customField(org, field(org, params.name!)) };
  });
  router.on('PATCH', `${base}/:name`, ({ params, body }) => {
    const org = findOrg(state(), params.orgId!);
    const f = field(org, params.name!);
    const b = asBody(body);
    const title = optString(b, 'title', { max: 100, nullable: true });
    const description = optString(b, 'description', { max: 200, nullable: true });
    const placeholder = optString(b, 'placeholder', { max: 100, nullable: true });
    const options = optStringArray(b, 'options', { min: 1, max: 50 });
    if (title !== undefined) f.title = title;
    if (description !== undefined) f.description = description;
    if (placeholder !== undefined) f.placeholder = placeholder;
    if (options !== undefined) f.options = options;
    f.updatedAt = now();
    return { status: 200, body: shapes.customField(org, f) };
  });
  router.on('DELETE', `${base}/:name`, ({ params }) => {
    const org = findOrg(state(), params.orgId!);
    const f = field(org, params.name!);
    org.customFields.splice(org.customFields.indexOf(f), 1);
    for (const space of org.spaces) delete space.customFields[f.name];
    return { status: 204 };
  });
}

/** A space's values of the custom fields. */
function registerSpaceValues({ state, shapes, router }: RouteDeps): void {
  router.on('GET', '/spaces/:spaceId/custom-fields', ({ params }) => {
    const { org, space } = findSpaceAnywhere(state(), params.spaceId!);
    const body = org.customFields.map((f) => ({
      customField: shapes.customField(org, f),
      ...(Object.hasOwn(space.customFields, f.name) ? { value: space.customFields[f.name] } : {}),
    }));
    return { status: 200, body };
  });
  router.on('PATCH', '/spaces/:spaceId/custom-fields', ({ params, body }) => {
    const { org, space } = findSpaceAnywhere(state(), params.spaceId!);
    const values = asBody(body, true)['values'];
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      throw badRequest('values: is required and must be an object');
    const updates: [string, Exclude<CustomFieldValue, null> | null][] = [];
    for (const [name, entry] of Object.entries(values)) {
      const f = org.customFields.find((x) => x.name === name);
      if (!f) throw badRequest(`values.${name}: no custom field named ${name}`);
      const e = asBody(entry, true);
      const value = e['value'];
      updates.push([
        name,
        value === null || value === undefined ? null : checkValue(f, value, `values.${name}.value`),
      ]);
    }
    for (const [name, value] of updates) {
      // Defined, never assigned: a field may be named __proto__ (the store holds plain objects).
      if (value === null) delete space.customFields[name];
      else
        Object.defineProperty(space.customFields, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    space.updatedAt = now();
    return { status: 204 };
  });
}
